// One gateway replica in a process of its own, configured from the environment
// as `npm start` is (plus the test's Redis namespace), so a test can SIGKILL it.
// Prints "REPLICA READY <graphql url>" once it serves; logs JSON lines on stderr.
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/gateway.js';
import { createLogger } from '../../src/logger.js';

const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
const gateway = await startGateway(config, log, { redisNamespace: process.env.TEST_REDIS_NAMESPACE });
console.log(`REPLICA READY ${gateway.graphqlUrl}`);
process.once('SIGTERM', () => void gateway.close().then(() => process.exit(0)));
