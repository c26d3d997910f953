/**
 * Counts what one ioredis connection sends, by wrapping its `sendCommand`
 * (every command goes through it, pipelined or not). A MULTI…EXEC block is one
 * round trip; any other command is one. Auto-pipelining may put commands of
 * different conversations in one write, but each still waits for its own reply
 * before the gateway goes on, so it counts as a round trip of its message.
 */
import type { Redis } from 'ioredis';

export interface RedisCount {
  commands: number;
  roundTrips: number;
  /** Per command name, MULTI/EXEC included. */
  byName: Map<string, number>;
}

export interface RedisCounter {
  /** Counts since the last reset. */
  snapshot(): RedisCount;
  reset(): void;
  /** Puts the original sendCommand back. */
  detach(): void;
}

export function countRedisCommands(client: Redis): RedisCounter {
  const original = client.sendCommand;
  let count: RedisCount = { commands: 0, roundTrips: 0, byName: new Map() };
  let inTransaction = false;
  const patched: Redis['sendCommand'] = function (this: Redis, ...args) {
    const name = args[0].name.toLowerCase();
    count.byName.set(name, (count.byName.get(name) ?? 0) + 1);
    if (name === 'multi') {
      inTransaction = true;
      count.roundTrips++;
    } else if (name === 'exec' || name === 'discard') {
      inTransaction = false;
    } else {
      count.commands++;
      if (!inTransaction) count.roundTrips++;
    }
    return original.apply(this, args);
  };
  client.sendCommand = patched;
  return {
    snapshot: () => ({ ...count, byName: new Map(count.byName) }),
    reset: () => {
      count = { commands: 0, roundTrips: 0, byName: new Map() };
    },
    detach: () => {
      client.sendCommand = original;
    },
  };
}
