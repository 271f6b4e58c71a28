// Whether a client's `after` can be resumed from: the log must still hold every event after it.
import type { EventLog } from './log.js';
import { compareStreamIds, parseStreamId, type StreamId } from './stream-id.js';
import { InternalError } from '../errors/internal-error.js';

/** An `after` older than what the log still holds: the client must reload from the `events` query. */
export class ResumeTooOldError extends InternalError {
  override readonly name = 'ResumeTooOldError';
  readonly code = 'RESUME_TOO_OLD';
}

/**
 * Rejects with ResumeTooOldError when events after `after` may be gone from the log (trimmed, or lost with
 * Redis: `generation`, the one the id was issued in, is not the log's any more; null for an id from before
 * generations).
 */
export async function checkResumable(log: EventLog, retentionMs: number, after: StreamId, generation: string | null): Promise<void> {
  // Another log than the id's (Redis restarted empty): its ids say nothing about what the client missed.
  if (((await log.generation()) || null) !== generation) {
    throw new ResumeTooOldError('this id is from an event log that was lost');
  }
  const trimmed = await log.trimmedThrough();
  const [ms] = parseStreamId(after) ?? [0];
  if (compareStreamIds(trimmed, after) > 0 || ms < Date.now() - retentionMs) {
    throw new ResumeTooOldError('events after this id are no longer in the log');
  }
  // An id the log never reached: the log was lost (a Redis restarted empty) or the id is from elsewhere.
  if (compareStreamIds(after, await log.lastId()) > 0) throw new ResumeTooOldError('this id is not in the event log');
}
