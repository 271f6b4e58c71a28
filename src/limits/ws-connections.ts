// Open WebSocket connections per client IP. A slot is taken when the upgrade
// is accepted and given back when that TCP connection closes, whichever way
// it ends (handshake failure included), so the count cannot drift.
export interface ConnectionSlots {
  /** Takes a slot for `ip`, released when `socket` closes; false when the IP holds them all. */
  acquire(ip: string, socket: { once(event: 'close', listener: () => void): unknown }): boolean;
  /** Open connections of `ip` (for tests and metrics). */
  count(ip: string): number;
}

/** Counts open WebSockets per client address, refusing one beyond `maxPerIp`. */
export function connectionSlots(maxPerIp: number): ConnectionSlots {
  const open = new Map<string, number>();
  return {
    acquire: (ip, socket) => {
      const current = open.get(ip) ?? 0;
      if (current >= maxPerIp) return false;
      open.set(ip, current + 1);
      socket.once('close', () => {
        const left = (open.get(ip) ?? 1) - 1;
        if (left <= 0) open.delete(ip);
        else open.set(ip, left);
      });
      return true;
    },
    count: (ip) => open.get(ip) ?? 0,
  };
}
