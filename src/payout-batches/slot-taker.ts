// A batch run's way to its pacing slots (pacing.ts): waits for one, gives up when the run stops or the batch no
// longer runs, and tells the pacer when a call is over so that the run's other chunks ask again at once.
import type { Logger } from '../logger.js';
import type { Pacer, PacerSlot, Take } from './pacing.js';

interface SlotTakerOptions {
  pacer: Pacer;
  log: Logger;
  batchId: string;
  /** Resolves after `ms`, or at once when the runner stops. */
  pause: (ms: number) => Promise<void>;
  /** The run stops (the runner stops, or lost its lease). */
  stopped: () => boolean;
  /** Whether the batch still runs: false (cancelled, paused), or null when that could not be read. */
  stillRunning: () => Promise<boolean | null>;
}

/** Takes pacing slots for one batch run's chunks, one waiter after another; gives up when the run stops or the batch no longer runs. */
export class SlotTaker {
  /** This run's chunks waiting for a slot. */
  private waiters = new Set<() => void>();

  constructor(private readonly o: SlotTakerOptions) {}

  /** A slot for one bulk call, or null when the run stops or the batch was cancelled or paused while it waited. */
  async take(): Promise<PacerSlot | null> {
    for (;;) {
      if (this.o.stopped()) return null;
      let take: Take;
      try {
        take = await this.o.pacer.tryTake();
      } catch (err) {
        this.o.log.warn('payout batch pacing unavailable', { batchId: this.o.batchId, error: err });
        take = { waitMs: 1_000 };
      }
      if ('slot' in take) return take.slot;
      await this.untilSlotMayFree(take.waitMs);
      // Waited for a slot: a chunk of a batch cancelled or paused meanwhile (a wallet ran dry) goes no further. A read
      // that fails is not a reason to send, nor to give up: asked again after the next wait.
      const running = await this.o.stillRunning();
      if (running === false) return null;
    }
  }

  /** Tells the pacer the call is over (its slot frees a second from now, not HOLD_MS after its grant). */
  finished(slot: PacerSlot): void {
    // Not waited for: if it fails the slot is held a little longer, which is only slower.
    slot
      .finished()
      // This run's chunks waiting for a slot ask again now: told then exactly when it frees, they sleep once, not twice.
      .then(() => [...this.waiters].forEach((wake) => wake()))
      .catch((err: unknown) => this.o.log.warn('payout batch pacing not told of a call', { batchId: this.o.batchId, error: err }));
  }

  /** Waits `ms`, or less if one of this run's calls is over meanwhile (the wait was counted while it was on its way). */
  private untilSlotMayFree(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.waiters.delete(wake);
        resolve();
      };
      this.waiters.add(wake);
      void this.o.pause(ms).then(wake);
    });
  }
}
