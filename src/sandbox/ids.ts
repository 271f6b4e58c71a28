import { randomBytes, randomUUID } from 'node:crypto';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export const newChargeReference = () => `ch_${hex(12)}`;
export const newCheckoutPublicReference = () => `chk_${hex(16)}`;
export const newTransferReference = () => `tr_${hex(12)}`;
export const newUuid = () => randomUUID();

/** Operator-side id, shaped like the operators' own (letters, date, sequence). */
export function newOperatorId(provider: string, atMs: number): string {
  const day = new Date(atMs).toISOString().slice(2, 10).replaceAll('-', '');
  const digits = String(randomBytes(4).readUInt32BE(0) % 1_000_000).padStart(6, '0');
  return `${provider.slice(0, 3).toUpperCase()}${day}.${digits}`;
}
