import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Adapter, GatewayObserver } from '../gateway/index.js';
import type { PlatformMetrics } from '../contract.js';

/** Prometheus metrics of one gateway process, exposed at /metrics. */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly messagesAccepted = new Counter({
    name: 'chatbridge_messages_accepted_total',
    help: 'User messages accepted into a conversation queue',
    labelNames: ['platform', 'bot'],
    registers: [this.registry],
  });
  readonly answersDelivered = new Counter({
    name: 'chatbridge_answers_delivered_total',
    help: 'Answers whose final text reached the platform',
    labelNames: ['platform', 'bot', 'renderer'],
    registers: [this.registry],
  });
  readonly platformRateLimited = new Counter({
    name: 'chatbridge_platform_rate_limited_total',
    help: 'Updates the platform (or its pace) refused with 429: skipped intermediate ones and retried finals',
    labelNames: ['platform'],
    registers: [this.registry],
  });
  readonly upstreamFailures = new Counter({
    name: 'chatbridge_upstream_failures_total',
    help: 'Chatbot Service calls that failed',
    labelNames: ['operation'],
    registers: [this.registry],
  });
  readonly windowClosed = new Counter({
    name: 'chatbridge_window_closed_total',
    help: "Replies not sent because the platform's reply window had closed (WhatsApp Cloud: 24 h after the user's last message); never tried again",
    labelNames: ['platform', 'bot'],
    registers: [this.registry],
  });
  readonly platformDeliveryFailed = new Counter({
    name: 'chatbridge_platform_delivery_failed_total',
    help: "Messages the platform took and reported later as not delivered (WhatsApp Cloud failed statuses), by the platform's error code",
    labelNames: ['platform', 'bot', 'code'],
    registers: [this.registry],
  });
  readonly answerSeconds = new Histogram({
    name: 'chatbridge_answer_seconds',
    help: "From the start of a message's turn to its final answer delivered",
    labelNames: ['platform'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'chatbridge_' });
  }

  /** chatbridge_platform_connected: 1 while an adapter is connected to its platform, 0 while it is (re)trying. */
  watchPlatforms(adapters: readonly Adapter[]): void {
    new Gauge({
      name: 'chatbridge_platform_connected',
      help: 'Whether each platform adapter is connected (1) or still trying to connect (0)',
      labelNames: ['platform', 'bot'],
      registers: [this.registry],
      collect() {
        // An adapter without status() counts as connected once started (see Adapter.status).
        for (const adapter of adapters)
          this.set({ platform: adapter.platform, bot: adapter.bot }, adapter.status?.().connected === false ? 0 : 1);
      },
    });
  }

  /** The counters an adapter feeds itself (PlatformContext.metrics), bound to its platform and bot. */
  forPlatform(platform: string, bot: string): PlatformMetrics {
    return {
      deliveryFailed: (code) => this.platformDeliveryFailed.inc({ platform, bot, code }),
    };
  }

  /** The gateway's observer that feeds these metrics. */
  observer(): GatewayObserver {
    return {
      accepted: (conversation) => this.messagesAccepted.inc({ platform: conversation.platform, bot: conversation.bot }),
      answered: (conversation, info) => {
        this.answersDelivered.inc({ platform: conversation.platform, bot: conversation.bot, renderer: info.renderer });
        if (info.rateLimitedUpdates > 0)
          this.platformRateLimited.inc({ platform: conversation.platform }, info.rateLimitedUpdates);
        this.answerSeconds.observe({ platform: conversation.platform }, info.seconds);
      },
      upstreamFailed: (operation) => this.upstreamFailures.inc({ operation }),
      windowClosed: (conversation) => this.windowClosed.inc({ platform: conversation.platform, bot: conversation.bot }),
    };
  }
}
