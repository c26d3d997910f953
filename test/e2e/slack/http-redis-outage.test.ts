/**
 * Slack over HTTP while the gateway's Redis is frozen or stopped: each event Slack posts is
 * answered 503 within a few seconds (Slack sends it again after 3 s anyway), the outage is logged
 * once, and once Redis is back the event Slack sends again is answered once.
 */
import { startSlackHttpGateway } from '../../support/slack-process.js';
import { ANSWER_MARK, QUESTION, redeliveringPoster, webhookOutageSpec } from '../../support/webhook-outage.js';

const DM = 'D0OUTAGE001';

webhookOutageSpec('Slack', async (redisUrl) => {
  const stack = await startSlackHttpGateway({ env: { REDIS_URL: redisUrl } });
  const { slack } = stack;
  const event = slack.build.messageIm({ channel: DM, text: QUESTION });
  let retryNum = 0;
  return {
    // Slack sends the same event (its event_id) again, numbering the retries.
    ...redeliveringPoster(async (signal) => {
      const options = retryNum > 0 ? { retryNum, signal } : { signal };
      retryNum++;
      return (await stack.post(event, options)).status;
    }),
    answers: () =>
      slack.visibleMessages(DM).filter((message) => message.text.includes(ANSWER_MARK) && message.state === 'done')
        .length,
    log: () => stack.gateway.log(),
    close: () => stack.close(),
  };
});
