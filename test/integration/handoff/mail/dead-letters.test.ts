import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HandoffAdminClient, handoffKeys, mailTag, type OutboxPolicy } from '../../../../src/handoff/index.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { testTopologies } from '../../gateway/stack.js';
import {
  ADMIN_TOKEN,
  OPERATOR_EMAIL,
  recordingLogger,
  startHandoffProcess,
  startHandoffStack,
  TEST_HANDOFF,
  type HandoffProcess,
  type HandoffStack,
} from '../stack.js';

const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
const ERROR_LEVEL = 50;
const NO_SUCH_MAILBOX = { code: 550, message: 'No such user here' };
const TRY_LATER = { code: 451, message: 'Mailbox busy, try again later' };

interface MailSummary {
  id: string;
  to: string;
  failures: number;
  permanentFailures?: number;
  lastError?: string;
  deadAt?: string;
}
interface MailListing {
  waiting: MailSummary[];
  dead: MailSummary[];
}

describe.each(testTopologies())('handoff e-mails the SMTP server refuses, on Redis (%s)', (topology) => {
  let stack: HandoffStack;
  let gateway: HandoffProcess | undefined;
  beforeEach(async () => {
    stack = await startHandoffStack('handoff-dead', { topology });
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await stack.close();
  });
  const start = async (outbox: Partial<OutboxPolicy> = {}) => {
    const { logger, lines } = recordingLogger();
    gateway = await startHandoffProcess({
      state: stack.store,
      upstream: stack.client,
      logger,
      outbox,
      config: { smtp: { url: stack.smtp.url, from: 'chatbridge <bot@oakridge.example>' }, handoff: TEST_HANDOFF },
    });
    return { process: gateway, lines };
  };
  const listing = async (process: HandoffProcess) => {
    const { status, body } = await process.admin('GET', '/admin/handoff-mail');
    expect(status).toBe(200);
    return body as MailListing;
  };

  it('gives up after the permanent refusals, tells the operator, lists the dead letter, and sends it once requeued', async () => {
    stack.smtp.refuse.set(OPERATOR_EMAIL, NO_SUCH_MAILBOX);
    const { process, lines } = await start();
    await process.adapter.say('c1', '/human', ana);

    const { dead } = await eventually(async () => {
      const current = await listing(process);
      expect(current.dead).toHaveLength(1);
      return current;
    });
    expect(dead[0]).toMatchObject({
      to: OPERATOR_EMAIL,
      failures: 5,
      permanentFailures: 5,
      lastError: expect.stringContaining('550'),
    });
    expect((await listing(process)).waiting).toEqual([]);
    expect(await stack.store.sortedScore(handoffKeys.dead(mailTag(dead[0]!.id)!), dead[0]!.id)).toBeTypeOf('number');
    expect(await stack.store.get(handoffKeys.mail(mailTag(dead[0]!.id)!, dead[0]!.id))).toContain('"deadAt"');
    const errors = lines.filter((line) => line.level === ERROR_LEVEL);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toContain('TalkToHumanEmail');
    expect(errors[0]!.msg).toContain('SMTP_URL');
    expect(errors[0]!.msg).toContain(`chatbridge handoff retry-mail ${dead[0]!.id}`);
    expect(stack.smtp.mails).toEqual([]);

    const cli = new HandoffAdminClient(process.url, ADMIN_TOKEN);
    expect(await cli.list()).toMatchObject({
      handoffs: [{ conversation: 'main:fakechat:c1' }],
      deadMail: [{ id: dead[0]!.id }],
    });
    await expect(cli.retryMail('no-such-mail')).rejects.toThrow(/HTTP 404.*no-such-mail/);

    // The operator fixed the mailbox.
    stack.smtp.refuse.clear();
    expect(await cli.retryMail(dead[0]!.id)).toMatchObject({ requeued: true, mail: { id: dead[0]!.id, failures: 0 } });
    await eventually(() => expect(stack.smtp.to(OPERATOR_EMAIL)).toHaveLength(1));
    await eventually(async () => expect(await listing(process)).toEqual({ waiting: [], dead: [] }));
    expect(await stack.store.get(handoffKeys.mail(mailTag(dead[0]!.id)!, dead[0]!.id))).toBeNull();
    expect((await cli.list()).deadMail).toEqual([]);
  });

  it('gives up at the first permanent refusal of a mail older than the maximum age', async () => {
    stack.smtp.refuse.set(OPERATOR_EMAIL, NO_SUCH_MAILBOX);
    const { process } = await start({ maxPermanentAgeMs: 0 });
    await process.adapter.say('c1', '/human', ana);
    const { dead } = await eventually(async () => {
      const current = await listing(process);
      expect(current.dead).toHaveLength(1);
      return current;
    });
    expect(dead[0]).toMatchObject({ failures: 1, permanentFailures: 1 });
  });

  it('keeps retrying transient refusals (4xx) past the permanent limit, and delivers once the server takes it', async () => {
    stack.smtp.refuse.set(OPERATOR_EMAIL, TRY_LATER);
    const { process, lines } = await start();
    await process.adapter.say('c1', '/human', ana);
    await eventually(async () => expect((await listing(process)).waiting[0]?.failures).toBeGreaterThanOrEqual(7));
    expect((await listing(process)).dead).toEqual([]);
    expect(lines.filter((line) => line.level === ERROR_LEVEL)).toEqual([]);

    stack.smtp.refuse.clear();
    await eventually(() => expect(stack.smtp.to(OPERATOR_EMAIL)).toHaveLength(1));
    await eventually(async () => expect(await listing(process)).toEqual({ waiting: [], dead: [] }));
  });
});
