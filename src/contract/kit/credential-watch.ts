/**
 * A platform that refuses the bot's credentials after the start (a token revoked or rotated),
 * told by the adapter's calls failing with PlatformError 'unauthorized'. Until a call succeeds
 * again, status() reports the adapter not connected with the variable to fix, so /readyz answers
 * 503 naming it and chatbridge_platform_connected is 0; the refusal is logged once, not once per
 * call. Meanwhile a probe (Telegram getMe, Slack auth.test, Meta GET /{phone-number-id}) is tried
 * with backoff, so that a working token is noticed even when no answer is waiting for one. The
 * core waits the refused answers out as it does for an unreachable platform
 * (src/gateway/reply/platform-retry.ts), so they go out once the token works.
 */
import type { AdapterStatus, Logger, NativeStream, Outbound } from '../adapter.js';
import { PlatformError } from '../platform-error.js';
import { retryWithBackoff } from './backoff.js';
import { RECONNECT_BACKOFF } from './stay-connected.js';

export interface CredentialWatchOptions {
  /** What status() says while refused: which credential, and the variable that sets it. */
  reason: string;
  /** One call that succeeds only with working credentials (and costs nothing else). */
  probe(signal: AbortSignal): Promise<void>;
  logger: Logger;
}

export function isUnauthorized(error: unknown): error is PlatformError {
  return error instanceof PlatformError && error.kind === 'unauthorized';
}

export class CredentialWatch {
  private refused = false;
  private probing: AbortController | undefined;

  constructor(private readonly options: CredentialWatchOptions) {}

  /** Not connected while the credentials are refused; undefined otherwise (the adapter's other state decides). */
  status(): AdapterStatus | undefined {
    return this.refused ? { connected: false, reason: this.options.reason } : undefined;
  }

  /** A call was refused for its credentials (`cause`: the platform's error, for the log). */
  refusedBy(cause: unknown): void {
    if (this.refused) return;
    this.refused = true;
    this.options.logger.error(
      { err: cause },
      `${this.options.reason}; answers wait until it works (up to gateway.platformOutageHorizonMs), and /readyz says so`,
    );
    this.probe();
  }

  /** A call succeeded: the credentials work. */
  accepted(): void {
    if (!this.refused) return;
    this.refused = false;
    this.probing?.abort();
    this.probing = undefined;
    this.options.logger.info('the platform takes the credentials again; the answers that waited go out');
  }

  /** The adapter stops: no more probes. */
  stop(): void {
    this.probing?.abort();
    this.probing = undefined;
  }

  /** `outbound` with every call watched: a refusal of the credentials marks them refused, any success works again. */
  watch<O extends Outbound>(outbound: O): O {
    const watched: Outbound = { send: (...args) => this.call(() => outbound.send(...args)) };
    const { edit, draft, startStream, stopStream, typing, sendFile } = outbound;
    if (sendFile) watched.sendFile = (...args) => this.call(() => sendFile.apply(outbound, args));
    if (edit) watched.edit = (...args) => this.call(() => edit.apply(outbound, args));
    if (draft) watched.draft = (...args) => this.call(() => draft.apply(outbound, args));
    if (stopStream) watched.stopStream = (...args) => this.call(() => stopStream.apply(outbound, args));
    if (typing) watched.typing = (...args) => this.call(() => typing.apply(outbound, args));
    if (startStream)
      watched.startStream = async (...args) =>
        this.watchStream(await this.call(() => startStream.apply(outbound, args)));
    // The outbound's own members (an adapter's extras) stay reachable; the contract's methods are the watched ones.
    return Object.assign(Object.create(outbound) as O, watched);
  }

  private watchStream(stream: NativeStream): NativeStream {
    return {
      id: stream.id,
      append: (markdown) => this.call(() => stream.append(markdown)),
      stop: (markdown) => this.call(() => stream.stop(markdown)),
    };
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      this.accepted();
      return result;
    } catch (error) {
      if (isUnauthorized(error)) this.refusedBy(error);
      throw error;
    }
  }

  private probe(): void {
    if (this.probing) return;
    const probing = new AbortController();
    this.probing = probing;
    const { signal } = probing;
    void retryWithBackoff(() => this.options.probe(signal), {
      backoff: RECONNECT_BACKOFF,
      signal,
      unref: true,
      retryIf: () => !signal.aborted,
    }).then(
      () => {
        if (!signal.aborted) this.accepted();
      },
      () => undefined,
    );
  }
}
