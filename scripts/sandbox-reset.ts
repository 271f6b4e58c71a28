// `npm run sandbox:reset`: the next `npm start` begins with a fresh sandbox (a
// new account, new development secrets, no charges, no events, no ext_id index). Only the files
// the sandbox writes are removed from SANDBOX_DATA_DIR, never anything else.
import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';
import { DEVELOPMENT_FILE, STATE_FILE } from '../src/sandbox/index.js';
import { EVENT_LOG_FILE } from '../src/events/log-file.js';
import { EXT_ID_INDEX_FILE } from '../src/ext-id-index/index.js';

function main(): void {
  const dir = loadConfig().sandboxDataDir;
  for (const name of [DEVELOPMENT_FILE, STATE_FILE, EVENT_LOG_FILE, EXT_ID_INDEX_FILE]) {
    for (const file of [name, `${name}.tmp`]) rmSync(path.join(dir, file), { force: true });
  }
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // no folder: nothing was kept
  }
  process.stdout.write(`Sandbox data removed from ${dir}: the next npm start begins afresh (new account, new development secret).\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? `Configuration error: ${err.message}` : String(err)}\n`);
  process.exit(1);
}
