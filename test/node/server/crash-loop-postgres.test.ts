// The crash loop (crash-loop.ts) on PostgreSQL, blobs in the database: with TEST_DATABASE_URL only.
import { test } from 'node:test';
import { testEngines } from '../support/test-database.ts';
import { describeCrashLoop } from './crash-loop.ts';

if (testEngines().includes('postgres')) describeCrashLoop('postgres');
else test('the crash loop on PostgreSQL', { skip: 'TEST_DATABASE_URL is not set' });
