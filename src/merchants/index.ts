// Platform mode's merchants: their registry, their secrets sealed under the key-encryption key, and where they
// are kept (Redis, or SANDBOX_DATA_DIR in sandbox mode).
export { createKeyRing, keyVersion, SealedSecretError, type KeyRing, type SealedSecret } from './key-ring.js';
export { isMerchantId, isRouteId, type MerchantStatus, type MerchantView } from './model.js';
export {
  createMerchantRegistry,
  MERCHANT_EVENT_KINDS,
  MerchantRefusedError,
  type MerchantEventKind,
  type MerchantRefusal,
  type MerchantRegistry,
  type MerchantSecrets,
} from './registry.js';
export { memoryMerchantStore } from './memory-store.js';
export { redisMerchantStore, merchantTag, merchantKeyIndex } from './redis-store.js';
export { MERCHANTS_FILE, merchantStateFile, sandboxKeyEncryptionKey } from './sandbox-files.js';
export type { MerchantStore } from './store.js';
export { merchantDirectory, type MerchantDirectory } from './directory.js';
