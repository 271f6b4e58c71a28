export {
  MAX_REFERENCES_PER_EXT_ID,
  accountPrefix,
  extIdIndexKey,
  memoryExtIdIndex,
  redisExtIdIndex,
  type ExtIdEntry,
  type ExtIdIndex,
} from './store.js';
export { recordEventExtId, recordingExtIds } from './recording-client.js';
export { EXT_ID_INDEX_FILE, fileExtIdPersistence } from './state-file.js';
