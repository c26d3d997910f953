import { describe, expect, it } from 'vitest';
import type { RunNumbers } from '../../../bench/peers/measure.js';
import { peersMarkdown } from '../../../bench/peers/report.js';

function run(contender: RunNumbers['contender'], node: string, cpuMsPerAnswer: number): RunNumbers {
  return {
    contender,
    node,
    answersPerSecond: 500,
    cpuMsPerAnswer,
    apiCallsPerAnswer: 1,
    redisCommandsPerAnswer: 10,
    redisCommandsSentPerAnswer: 5,
    redisRoundTripsPerAnswer: 3,
    redisBytesPerChat: 4096,
    peakRssMb: 200,
    idleRssMb: 190,
    answers: 20,
    expected: 20,
    incompleteChats: 0,
    otherMessages: 0,
    failedCalls: 0,
    callsByMethod: new Map([['sendMessage', 20]]),
    redisByCommand: new Map([['set', 40]]),
  };
}

const context = {
  command: 'npm run bench:peers',
  date: '2026-11-27',
  machine: 'a test machine',
  commit: 'abc1234',
  chats: 10,
  messages: 2,
  rounds: 1,
  redis: 'a test Redis',
};

describe('the peers section of BENCHMARKS.md', () => {
  it('names the Node of every row, ratio and aim when the contenders ran on two Nodes', () => {
    const markdown = peersMarkdown(
      [
        run('chatbridge', 'v20.20.2', 1.8),
        run('chatbridge', 'v24.21.0', 1.6),
        run('grammy-send', 'v20.20.2', 0.6),
        run('grammy-send', 'v24.21.0', 0.4),
      ],
      context,
    );
    expect(markdown).toMatch(/^\| chatbridge \(polling, drafts\) \| v20\.20\.2 \| 500 \| 1\.80 \|/m);
    expect(markdown).toMatch(/^\| chatbridge \(polling, drafts\) \| v24\.21\.0 \| 500 \| 1\.60 \|/m);
    expect(markdown).toMatch(/^\| the sendMessage floor \| v20\.20\.2 \| 3\.00× \|/m);
    expect(markdown).toMatch(/^\| the sendMessage floor \| v24\.21\.0 \| 4\.00× \|/m);
    expect(markdown).toMatch(/^\| CPU per answer ≤ 1\.5 ms \| v24\.21\.0 \| 1\.60 ms \| \*\*missed\*\* \|/m);
    expect(markdown).toMatch(/^\| 2 \| chatbridge \| v24\.21\.0 \| 500 \|/m);
    expect(markdown).toContain('each contender on v20.20.2 then v24.21.0 in turn');
  });
});
