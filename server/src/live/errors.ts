// How a fetch fails: FetchError (phase, timed out, cancelled) and the deadline that raises it, shared by every step so each limit hit names itself.
export type FetchPhase = 'refused' | 'start' | 'connect' | 'list';

// The SDK's own request timeout is only a backstop: ours fires first and says which limit was hit.
export const SDK_TIMEOUT_SLACK_MS = 1_000;

/** A fetch that failed. The message is already redacted and names no secret value. */
export class FetchError extends Error {
  constructor(
    readonly server: string,
    readonly phase: FetchPhase,
    message: string,
    readonly timedOut = false,
    /** Stopped because the caller's signal was aborted. */
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export function cancelledError(server: string, phase: FetchPhase): FetchError {
  return new FetchError(server, phase, 'the fetch was cancelled', false, true);
}

export function asFetchError(
  error: unknown,
  server: string,
  phase: FetchPhase,
  clean: (text: string) => string,
  prefix?: string,
): FetchError {
  if (error instanceof FetchError) return error;
  const timedOut = isRecord(error) && error.code === -32001; // the SDK's RequestTimeout
  return new FetchError(server, phase, clean(prefix ? `${prefix}: ${describe(error)}` : describe(error)), timedOut);
}

/**
 * Rejects with `onTimeout()` when `promise` takes longer than `ms`, or with `abort.onAbort()` as
 * soon as the signal is aborted; a late failure is only logged.
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  log: (line: string) => void,
  abort?: { signal: AbortSignal | undefined; onAbort: () => Error },
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  let stopListening = () => {
    // nothing to stop until the deadline starts listening
  };
  const deadline = new Promise<never>((_, reject) => {
    const fail = (error: Error) => {
      ended = true;
      reject(error);
    };
    timer = setTimeout(() => fail(onTimeout()), ms);
    const signal = abort?.signal;
    if (signal) {
      const onAbort = () => fail(abort.onAbort());
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        stopListening = () => signal.removeEventListener('abort', onAbort);
      }
    }
  });
  promise.catch((error: unknown) => {
    if (ended) log(`after the fetch was stopped: ${describe(error)}`);
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    stopListening();
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
