/**
 * One run of one contender: a fresh fake Bot API (no flood limits) and a clean
 * Redis, the contender started as its own process, the load, then its numbers.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeTelegram } from '../../fakes/telegram/index.js';
import { startContender, type ContenderName, type Setup } from './contenders.js';
import { runLoad } from './load.js';
import { cpuMs, memoryMb } from './proc.js';
import type { BenchRedis } from './redis.js';

/** A Node the contenders run on: its binary and what `node --version` says. */
export interface NodeRuntime {
  path: string;
  version: string;
}

export interface RunNumbers {
  contender: ContenderName;
  /** The version of the Node it ran on (v24.21.0). */
  node: string;
  answersPerSecond: number;
  cpuMsPerAnswer: number;
  apiCallsPerAnswer: number;
  /** Commands Redis ran (commandstats: MULTI/EXEC and those scripts call included). */
  redisCommandsPerAnswer: number;
  /** Commands the contender sent (MONITOR: MULTI/EXEC included, those scripts call not). */
  redisCommandsSentPerAnswer: number;
  /** Its round trips (a pipeline, a MULTI…EXEC or a script is one): counted in chatbridge's process, from MONITOR for the others. */
  redisRoundTripsPerAnswer: number;
  /** Redis used_memory after the run, less before it, per chat (bytes). */
  redisBytesPerChat: number;
  peakRssMb: number;
  idleRssMb: number;
  answers: number;
  expected: number;
  incompleteChats: number;
  otherMessages: number;
  failedCalls: number;
  callsByMethod: Map<string, number>;
  redisByCommand: Map<string, number>;
  /** Why the run was not complete, with the contender's last output. */
  failure?: string;
}

/** After the last answer: trailing writes (queue advance, lock release) still belong to the answers. */
const SETTLE_MS = 1_000;
/** Then how long it idles before its idle RSS is read. */
const IDLE_MS = 3_000;

export async function measureRun(
  name: ContenderName,
  options: {
    chats: number;
    messages: number;
    chunks: readonly string[];
    redis: BenchRedis;
    upstreamUrl: string;
    stallMs: number;
    node: NodeRuntime;
  },
): Promise<RunNumbers> {
  const fake = await startFakeTelegram({ rateLimit: false });
  await options.redis.flush();
  const memoryBefore = await options.redis.usedMemory();
  const setup: Setup = {
    token: fake.token,
    apiRoot: fake.apiRoot,
    botUsername: fake.botInfo.username,
    redisUrl: options.redis.url,
    upstreamUrl: options.upstreamUrl,
    chunks: options.chunks,
    keyPrefix: `cbbench:peers:${randomUUID().slice(0, 8)}:`,
    node: options.node.path,
  };
  const contender = await startContender(name, setup);
  try {
    // Let start-up work (script loads, getMe, the first getUpdates) finish before counting.
    await sleep(500);
    await options.redis.startCounting();
    const roundTripsBefore = await contender.redisRoundTrips();
    const cpuBefore = cpuMs(contender.pid);
    const answer = options.chunks.join('');
    const load = await runLoad(fake, {
      chats: options.chats,
      messages: options.messages,
      answer,
      stallMs: options.stallMs,
    });
    await sleep(SETTLE_MS);
    const cpu = cpuMs(contender.pid) - cpuBefore;
    const roundTripsAfter = await contender.redisRoundTrips();
    const redis = await options.redis.stopCounting();
    const { peak } = memoryMb(contender.pid);
    await sleep(IDLE_MS);
    const { rss: idle } = memoryMb(contender.pid);
    const memoryAfter = await options.redis.usedMemory();
    const answers = Math.max(1, load.answers);
    const calls = [...load.callsByMethod.values()].reduce((a, b) => a + b, 0);
    const expected = options.chats * options.messages;
    const complete = load.answers === expected && load.incompleteChats === 0;
    return {
      contender: name,
      node: options.node.version,
      answersPerSecond: load.answers / (load.elapsedMs / 1000),
      cpuMsPerAnswer: cpu / answers,
      apiCallsPerAnswer: calls / answers,
      redisCommandsPerAnswer: redis.commands / answers,
      redisCommandsSentPerAnswer: redis.sent / answers,
      redisRoundTripsPerAnswer:
        (roundTripsAfter !== undefined && roundTripsBefore !== undefined
          ? roundTripsAfter - roundTripsBefore
          : redis.roundTrips) / answers,
      redisBytesPerChat: (memoryAfter - memoryBefore) / options.chats,
      peakRssMb: peak,
      idleRssMb: idle,
      answers: load.answers,
      expected,
      incompleteChats: load.incompleteChats,
      otherMessages: load.otherMessages,
      failedCalls: load.failedCalls,
      callsByMethod: load.callsByMethod,
      redisByCommand: redis.byCommand,
      ...(complete
        ? {}
        : {
            failure:
              `${load.answers} of ${expected} answers complete, ${load.incompleteChats} chats incomplete; ` +
              `last output:\n${contender.output().slice(-1500)}`,
          }),
    };
  } finally {
    await contender.stop();
    await fake.close();
  }
}
