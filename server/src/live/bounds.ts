// The bounds of one fetch beyond each step's deadline: how many bytes an HTTP server may send in
// all (a response that never ends, or a page of gigabytes, would otherwise fill the memory within
// one page's deadline), and the stop signal that ends every step at once when a bound is hit or
// the caller cancels, with the error that says which.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { cancelledError, FetchError, type FetchPhase } from './errors.js';

/** Everything an HTTP server may send in one fetch (every response body together). */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

const megabytes = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

export class FetchBounds {
  private readonly controller = new AbortController();
  private reason: FetchError | undefined;
  /** Bytes of response bodies received so far. */
  received = 0;

  constructor(
    readonly server: string,
    readonly maxBytes: number,
    caller: AbortSignal | undefined,
  ) {
    if (caller?.aborted) this.controller.abort();
    else caller?.addEventListener('abort', () => this.controller.abort(), { once: true });
  }

  /** Aborted when the caller cancels or a bound is hit: every step stops on it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The error a step stopped by `signal` fails with: the bound hit, else the caller's cancel. */
  stopped(phase: FetchPhase): FetchError {
    return this.reason ?? cancelledError(this.server, phase);
  }

  /** Whether `error` is the bound that stopped the fetch (it is final: no fallback is tried). */
  isStop(error: unknown): boolean {
    return error !== undefined && error === this.reason;
  }

  /** A bound was hit: the fetch stops with `reason`. */
  hit(reason: FetchError): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort();
  }

  /**
   * `fetch` for the SDK's HTTP transports: each request also ends when the fetch stops, and each
   * response body is counted as it arrives; past `maxBytes` in all, the body fails and the fetch
   * stops with an error that names the bound.
   */
  fetch(phase: () => FetchPhase, base: FetchLike = fetch): FetchLike {
    return async (url, init) => {
      const signal = init?.signal ? AbortSignal.any([init.signal, this.signal]) : this.signal;
      const response = await base(url, { ...init, signal });
      if (!response.body) return response;
      const counter = new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          this.received += chunk.byteLength;
          if (this.received > this.maxBytes) {
            const error = new FetchError(
              this.server,
              phase(),
              `the server sent more than ${megabytes(this.maxBytes)} (the bound on what one catalog fetch reads); stopped`,
            );
            this.hit(error);
            controller.error(error);
            return;
          }
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(counter), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }
}
