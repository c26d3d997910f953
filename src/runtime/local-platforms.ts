/**
 * The local platforms of the list (the console): whether each opens on this start, and the
 * gateway's side the runtime gives them (GatewayHost). Their modules decide; nothing here
 * knows which local platforms there are.
 */
import type { Config } from '../config/index.js';
import type { ConversationRef, GatewayHost, LocalPlatformModule, PlatformModule } from '../contract.js';
import type { Gateway } from '../gateway/index.js';
import type { HandoffController } from '../handoff/index.js';
import { anyPlatformConfigured } from './platforms.js';

export interface LocalPlatformsOpening {
  /** The local platforms that open, each with its parsed setting. */
  open: { platform: LocalPlatformModule; setting: unknown }[];
  /** What the closed ones tell the person who started the gateway (e.g. why the console stays closed). */
  notices: string[];
}

/**
 * Which local platforms open: each module decides on its setting, whether stdin is a terminal
 * and whether a platform of `bots[]` is configured. The CLI asks before the log is set up
 * (while one is open the log goes to a file), the runtime again when it builds the adapters.
 */
export function localPlatformsOpening(
  config: Config,
  platforms: readonly PlatformModule[],
  stdinIsTTY = Boolean(process.stdin.isTTY),
): LocalPlatformsOpening {
  const situation = { stdinIsTTY, platformConfigured: anyPlatformConfigured(config, platforms) };
  const opening: LocalPlatformsOpening = { open: [], notices: [] };
  for (const platform of platforms) {
    if (platform.kind !== 'local') continue;
    const setting = config.localPlatforms[platform.name];
    const decision = platform.opens(setting, situation);
    if (decision.open) opening.open.push({ platform, setting });
    else if (decision.notice) opening.notices.push(decision.notice);
  }
  return opening;
}

/**
 * A GatewayHost made before the gateway it speaks for: the adapters are built first (the
 * gateway is made with them), the gateway and its handoff after. The runtime binds it before
 * it starts the adapters, and a local platform asks only once started.
 */
export class LateGatewayHost implements GatewayHost {
  private bound: { gateway: Pick<Gateway, 'answered'>; handoff: HandoffController } | undefined;

  bind(gateway: Pick<Gateway, 'answered'>, handoff: HandoffController): void {
    this.bound = { gateway, handoff };
  }

  answered(conversation: ConversationRef): Promise<boolean> {
    return this.parts().gateway.answered(conversation);
  }

  async withPerson(conversation: ConversationRef): Promise<boolean> {
    return (await this.parts().handoff.activePause(conversation)) !== null;
  }

  async resume(conversation: ConversationRef): Promise<boolean> {
    // The log names who handed it back: the person at the local platform (e.g. "console").
    return (await this.parts().handoff.resume(conversation, { by: conversation.platform })) === 'resumed';
  }

  private parts(): { gateway: Pick<Gateway, 'answered'>; handoff: HandoffController } {
    if (!this.bound)
      throw new Error('The gateway is not started yet: a local platform asks its host only once started.');
    return this.bound;
  }
}
