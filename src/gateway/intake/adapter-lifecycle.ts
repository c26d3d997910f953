/**
 * Starting and stopping the adapters, each with the sink its platform needs:
 * for a platform that redelivers a message whose accept() failed (a webhook), the
 * gateway's own sink bounded in time (webhook-accept.ts: answered within
 * gateway.webhookAcceptMs, whatever Redis does); for one that does not (long polling),
 * that sink wrapped in a PatientSink: there a message that could not be queued because
 * the state store is down is held in memory and queued once it is back (patient-sink.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../logger.js';
import { PatientSink } from './patient-sink.js';
import { WebhookAccept, type CancellableSink } from './webhook-accept.js';
import type { Adapter, InboundSink } from '../../contract.js';
import type { UserTexts } from '../user-texts.js';

/**
 * How long a stopping adapter may still hand over messages it holds (Telegram: an album
 * being collected) through its PatientSink. Past this, the messages held there (the store is
 * down) give up, so that an outage does not hold up the stop; the adapter's platform keeps
 * them (they were not confirmed) for the next start. A stop that finishes sooner closes the
 * PatientSink as soon as it finishes.
 */
export const HANDOVER_ON_STOP_MS = 5_000;

export interface AdapterStartInfo {
  commands: { name: string; description: string; usage?: string }[];
}

export class AdapterLifecycle {
  /** The PatientSink handed to each running adapter that needs one; a new one per start (a closed one stays closed). */
  private readonly patient = new Map<Adapter, PatientSink>();

  constructor(
    private readonly adapters: readonly Adapter[],
    private readonly logger: Logger,
    /** GatewayPolicy.webhookAcceptMs. */
    private readonly webhookAcceptMs: number,
    /** A bot's sentences in its chatbot's language as last known, without reading the state store (the patient sink's notice). */
    private readonly knownTexts?: (bot: string) => UserTexts,
  ) {}

  /**
   * Starts every adapter in turn; rejects with the first that cannot start (a refused token).
   * `infoFor`: what an adapter of that bot is told (its commands, described in its chatbot's language).
   */
  async start(sink: InboundSink & CancellableSink, infoFor: (bot: string) => Promise<AdapterStartInfo>): Promise<void> {
    // One for every webhook: an outage of the one Redis is logged once, not once per platform.
    const bounded = new WebhookAccept(sink, { limitMs: this.webhookAcceptMs, logger: this.logger });
    for (const adapter of this.adapters) {
      const patient = !adapter.redeliversOnAcceptFailure ? this.patientSinkFor(adapter, sink) : undefined;
      if (patient) this.patient.set(adapter, patient);
      try {
        await adapter.start(patient ?? bounded, await infoFor(adapter.bot));
      } catch (error) {
        patient?.close();
        this.patient.delete(adapter);
        throw error;
      }
    }
  }

  /** Stops every adapter in turn; a failure to stop one is logged, and the others still stop. */
  async stop(): Promise<void> {
    for (const adapter of this.adapters) {
      await this.stopOne(adapter).catch((error: unknown) =>
        this.logger.warn({ err: error, platform: adapter.platform }, 'stopping an adapter failed'),
      );
    }
  }

  private async stopOne(adapter: Adapter): Promise<void> {
    const patient = this.patient.get(adapter);
    this.patient.delete(adapter);
    const stopped = adapter.stop();
    if (!patient) return stopped;
    // An adapter's stop may wait for its handlers, and a handler for a held message waits for
    // the store: closing the PatientSink ends that wait (the message stays with the platform).
    const handedOver = new AbortController();
    await Promise.race([
      stopped.catch(() => undefined),
      sleep(HANDOVER_ON_STOP_MS, undefined, { signal: handedOver.signal }).catch(() => undefined),
    ]);
    handedOver.abort();
    patient.close();
    await stopped;
  }

  private patientSinkFor(adapter: Adapter, sink: InboundSink): PatientSink {
    const logger = this.logger.child({ platform: adapter.platform, bot: adapter.bot });
    const knownTexts = this.knownTexts;
    return new PatientSink(sink, { logger, adapter, ...(knownTexts ? { texts: () => knownTexts(adapter.bot) } : {}) });
  }
}
