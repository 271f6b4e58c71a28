// Async iterators whose return() takes effect at once. An async generator's
// return() waits for its pending next() to settle, i.e. for the next event,
// which would keep a poller and a bus subscription alive after the client
// unsubscribed; these end the source immediately instead.

export interface Filtered<T, U> {
  /** Maps an item to what to yield, or undefined to skip it. */
  map: (item: T) => U | undefined;
  /** True once the stream should end after the item just yielded. */
  isLast?: (value: U) => boolean;
  /** Runs once, when the stream ends for any reason. */
  onEnd?: () => void;
}

export function filterMap<T, U>(source: AsyncIterator<T>, options: Filtered<T, U>, ready: Promise<void> = Promise.resolve()): AsyncIterableIterator<U> {
  let ended = false;
  let endAfterNext = false;
  const end = () => {
    if (ended) return;
    ended = true;
    options.onEnd?.();
    void source.return?.();
  };
  const finished = (): IteratorResult<U> => ({ done: true, value: undefined });
  return {
    async next() {
      if (ended || endAfterNext) {
        end();
        return finished();
      }
      try {
        await ready;
      } catch (err) {
        end();
        throw err;
      }
      for (;;) {
        const step = await source.next();
        if (ended || step.done) {
          end();
          return finished();
        }
        const value = options.map(step.value);
        if (value === undefined) continue;
        if (options.isLast?.(value)) endAfterNext = true;
        return { done: false, value };
      }
    },
    async return() {
      end();
      return finished();
    },
    async throw(err: unknown) {
      end();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
