// Shard 1 of the mock parity run: support/parity-shard.ts says what it is and why it is split.
import { runParityShard } from './support/parity-shard.ts';

await runParityShard(1);
