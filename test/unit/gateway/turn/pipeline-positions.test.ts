/**
 * Features outside the core add pipeline steps at named positions
 * (record → beforeCommands → commands → beforeAsk → limits → session → ask):
 * where a step runs is its position, not the order it was added in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelinePosition } from '../../../../src/gateway/turn/pipeline.js';
import { startHarness, type Harness } from '../support/harness.js';
import { eventually } from '../support/recording-adapter.js';

describe('pipeline steps at positions', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('runs a step at beforeCommands before any command, and one at beforeAsk only for what no command answered', async () => {
    harness = await startHarness();
    const { gateway, adapter } = harness;
    const seen: string[] = [];
    // Added in the opposite order of their positions.
    gateway.pipeline.use('beforeAsk', async (ctx, next) => {
      seen.push(`beforeAsk: ${ctx.inbound.text}`);
      await next();
    });
    gateway.pipeline.use('beforeCommands', async (ctx, next) => {
      seen.push(`beforeCommands: ${ctx.inbound.text}`);
      await next();
    });
    await adapter.say('c1', '/help');
    await adapter.say('c1', 'hello');
    await eventually(() => expect(adapter.textsIn('c1')).toHaveLength(2));
    expect(seen).toEqual(['beforeCommands: /help', 'beforeCommands: hello', 'beforeAsk: hello']);
    expect(adapter.textsIn('c1')[1]).toBe('You said: hello');
  });

  it('ends the turn at a step that does not hand over, and runs it no more once removed', async () => {
    harness = await startHarness();
    const { gateway, adapter, service } = harness;
    const remove = gateway.pipeline.use('beforeCommands', async () => undefined);
    await adapter.say('c1', 'not answered');
    await eventually(async () => {
      const transcript = await gateway.transcript.read(adapter.conversation('c1'));
      expect(transcript.map(({ role, text }) => `${role}: ${text}`)).toEqual(['user: not answered']);
    });
    remove();
    await adapter.say('c1', 'answered');
    await eventually(() => expect(adapter.textsIn('c1')).toEqual(['You said: answered']));
    expect(service.asks.map((ask) => ask.content)).toEqual(['answered']);
  });

  it('refuses a position the pipeline does not have, naming the ones it has', async () => {
    harness = await startHarness();
    expect(() => harness!.gateway.pipeline.use('afterAsk' as PipelinePosition, async () => undefined)).toThrow(
      /record, beforeCommands, commands, beforeAsk, limits, session, ask/,
    );
  });
});
