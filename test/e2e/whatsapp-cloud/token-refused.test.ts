/**
 * Meta refuses the access token for a while (revoked, then a working one again: every Graph call
 * answers 401 with code 190): the process stays up, /readyz answers 503 naming the platform and
 * WHATSAPP_CLOUD_ACCESS_TOKEN, chatbridge_platform_connected is 0, and the question a user asked
 * meanwhile is answered, once, when the token works again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { runDoctor } from '../../support/doctor-process.js';
import { eventually, platformConnected, readiness } from '../../support/readiness-probe.js';
import { testRedisUrl } from '../../support/redis.js';
import { cloudEnv, startCloudGateway, type CloudProcess } from '../../support/whatsapp-cloud-process.js';

const USER = '4915100006001';
const QUESTION = 'Do you have homes for sale in Austin?';
/** In the demo chatbot's answer to QUESTION. */
const ANSWER_MARK = 'MLS TX-10452';
/** After the answer, how long the test watches for a second one. */
const WATCH_FOR_A_SECOND_ANSWER_MS = 4_000;

describe('chatbridge start with WhatsApp Cloud while Meta refuses the access token', () => {
  let cloud: CloudProcess;
  const answers = () => cloud.texts(USER).filter((text) => text.includes(ANSWER_MARK)).length;

  beforeAll(async () => {
    cloud = await startCloudGateway();
  }, 60_000);

  afterAll(async () => {
    await cloud?.close();
  });

  it('says so on /readyz and in the metric, and answers the question asked meanwhile once the token works', async () => {
    const { port } = cloud.gateway;
    expect((await readiness(port)).status).toBe(200);

    cloud.fake.refuseToken(true);
    await cloud.fake.userSends({ from: USER, text: QUESTION });
    await eventually(async () => (await readiness(port)).status === 503, '/readyz 503 while the token is refused', {
      log: cloud.gateway.log,
    });
    const refused = await readiness(port);
    expect(refused.reason).toContain('whatsapp-cloud:main');
    expect(refused.reason).toContain('WHATSAPP_CLOUD_ACCESS_TOKEN');
    expect(await platformConnected(port, 'whatsapp-cloud')).toBe(0);
    expect(cloud.gateway.child.exitCode).toBeNull();
    expect(cloud.fake.calls().some((call) => call.errorCode === 190)).toBe(true);
    expect(answers()).toBe(0);
    // `chatbridge doctor` checks the token itself, and says what to fix.
    const doctor = await runDoctor({ ...cloudEnv(cloud.fake), REDIS_URL: testRedisUrl() });
    expect(doctor.code).not.toBe(0);
    expect(doctor.output).toMatch(/FAIL\s+whatsapp-cloud:main: .*WHATSAPP_CLOUD_ACCESS_TOKEN/);

    cloud.fake.refuseToken(false);
    await eventually(() => answers() >= 1, 'the answer once the token works', {
      log: cloud.gateway.log,
      timeoutMs: 90_000,
    });
    await eventually(async () => (await readiness(port)).status === 200, '/readyz 200 again', {
      log: cloud.gateway.log,
    });
    expect(await platformConnected(port, 'whatsapp-cloud')).toBe(1);
    await sleep(WATCH_FOR_A_SECOND_ANSWER_MS);
    expect(answers()).toBe(1);
    // The refusal is logged once, naming the variable, not once per try.
    const refusals = cloud.gateway
      .log()
      .split('\n')
      .filter((line) => line.includes('answers wait until it works'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain('WHATSAPP_CLOUD_ACCESS_TOKEN');
  }, 180_000);
});
