/**
 * The platforms of this build: THE list. The runtime builds their adapters, the config
 * accepts their sections and variables, doctor checks them, the admin API knows their
 * conversation ids — all by iterating over it. Only the composition root (src/runtime,
 * src/cli, src/main.ts) imports this file (linted); the core takes the list as a parameter.
 * A new platform is its folder and one line here.
 */
import type { PlatformModule } from '../src/contract.js';
import { consoleModule } from './console/module.js';
import { slackModule } from './slack/module.js';
import { telegramModule } from './telegram/module.js';
import { whatsappModule } from './whatsapp/module.js';
import { whatsappCloudModule } from './whatsapp-cloud/module.js';

export const PLATFORM_MODULES: readonly PlatformModule[] = [
  telegramModule,
  slackModule,
  whatsappModule,
  whatsappCloudModule,
  // Local: no section in `bots[]`; opens on a terminal when none of the above is configured.
  consoleModule,
];
