// A slot a subscription holds from its subscribe until its stream ends, however it ends (complete, error,
// client stop): the per-caller and per-replica caps give it back exactly once. A refused or failed
// subscription (a plain result, not a stream) holds no slot.
export function holdUntilStreamEnds(release: () => void) {
  let released = false;
  const releaseOnce = () => {
    if (!released) release();
    released = true;
  };
  return {
    onSubscribeResult: ({ result }: { result: unknown }) => {
      if (!isAsyncIterable(result)) {
        releaseOnce();
        return;
      }
      return { onEnd: releaseOnce };
    },
  };
}

function isAsyncIterable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
