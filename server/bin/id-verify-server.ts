#!/usr/bin/env node
// The `id-verify-server` command of @id-verify/server (`serve`, `worker`, `migrate`, `bootstrap`): the
// commands themselves live in server/cli.ts, which `npm run idv` runs in the repository.
import '../cli.ts';
