/**
 * WhatsApp Cloud while the gateway's Redis is frozen or stopped: each webhook Meta posts is
 * answered 503 within a few seconds (not held open for the outage, each a timeout to Meta), the
 * outage is logged once, and once Redis is back the webhook Meta sends again is answered once.
 */
import { startCloudGateway } from '../../support/whatsapp-cloud-process.js';
import { ANSWER_DEADLINE_MS, ANSWER_MARK, QUESTION, webhookOutageSpec } from '../../support/webhook-outage.js';

const USER = '4915100005001';

webhookOutageSpec('WhatsApp Cloud', async (redisUrl) => {
  const cloud = await startCloudGateway({
    // The fake posts again 500 ms after each answer that is not a 200, and counts one not given within the deadline as failed.
    fake: { ackTimeoutMs: ANSWER_DEADLINE_MS, redeliveryDelaysMs: Array<number>(200).fill(500) },
    env: { REDIS_URL: redisUrl },
  });
  return {
    async deliver() {
      await cloud.fake.userSends({ from: USER, text: QUESTION });
    },
    tries: () =>
      cloud.fake
        .webhookAttempts()
        .filter((attempt) => attempt.kind === 'message')
        .map(({ status }) => ({ status: status === 'error' ? ('no answer' as const) : status })),
    answers: () => cloud.texts(USER).filter((text) => text.includes(ANSWER_MARK)).length,
    log: () => cloud.gateway.log(),
    close: () => cloud.close(),
  };
});
