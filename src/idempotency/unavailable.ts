// Any failure of a Redis command a money-moving request depends on (connection down, command
// timeout, out of memory under `noeviction`) becomes one typed, retryable error.
import { ServiceUnavailableError } from '../errors/payment-errors.js';

/** Runs a store command; any failure of it becomes ServiceUnavailableError (typed, retryable, nothing sent). */
export async function orUnavailable<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (err) {
    throw err instanceof ServiceUnavailableError ? err : new ServiceUnavailableError({ cause: err });
  }
}
