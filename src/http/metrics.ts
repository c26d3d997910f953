import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one gateway process, exposed at /metrics. */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly messagesAccepted = new Counter({ name: 'chatbridge_messages_accepted_total', help: 'User messages accepted into a conversation queue', labelNames: ['platform', 'bot'], registers: [this.registry] });
  readonly answersDelivered = new Counter({ name: 'chatbridge_answers_delivered_total', help: 'Answers whose final text reached the platform', labelNames: ['platform', 'bot', 'renderer'], registers: [this.registry] });
  readonly platformRateLimited = new Counter({ name: 'chatbridge_platform_rate_limited_total', help: 'Intermediate updates skipped because the platform answered 429', labelNames: ['platform'], registers: [this.registry] });
  readonly upstreamFailures = new Counter({ name: 'chatbridge_upstream_failures_total', help: 'Chatbot Service calls that failed', labelNames: ['operation'], registers: [this.registry] });
  readonly answerSeconds = new Histogram({ name: 'chatbridge_answer_seconds', help: 'From dequeuing a message to the final answer delivered', labelNames: ['platform'], buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60], registers: [this.registry] });
  readonly httpRequests = new Counter({ name: 'chatbridge_http_requests_total', help: 'HTTP requests served', labelNames: ['route', 'status'], registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'chatbridge_' });
  }
}
