import type { Command } from 'commander';
import { ChatbotSettingsMirror, SessionMap } from '../gateway/index.js';
import type { DeleteKeyType, SaleType } from '../upstream/api.js';
import { gatewayBots, wireSettings } from '../runtime/bots.js';
import { printJson, withCli } from './context.js';
import { readListingFile } from './listing-files.js';
import { parseSettingAssignments } from './setting-assignments.js';

export function registerAdminCommands(program: Command): void {
  const settings = program
    .command('settings')
    .description("a chatbot's settings (Edit); the gateway keeps a copy since the API cannot read them");
  settings
    .command('get')
    .option('--bot <id>')
    .description(
      "print the settings the gateway applies (embedded: the service's record; hosted: its copy, with the service's defaults)",
    )
    .action(async (opts: { bot?: string }) => {
      await withCli(async (ctx) => {
        // Read as the running gateway reads them, so what is printed is what it applies.
        const mirror = new ChatbotSettingsMirror(ctx.state, 0);
        wireSettings(mirror, { embedded: ctx.upstream.embedded, state: ctx.state, bots: gatewayBots(ctx.config) });
        printJson(await mirror.get(ctx.serialNumber(opts.bot)));
      });
    });
  settings
    .command('set')
    .argument('<assignments...>', 'KEY=VALUE pairs, e.g. WelcomeMessage="Hello" RateLimitCount=5')
    .option('--bot <id>')
    .description('Edit the chatbot at the service, then update the gateway copy')
    .action(async (assignments: string[], opts: { bot?: string }) => {
      // Checked before anything is opened or sent: a typo never reaches the service.
      const changes = parseSettingAssignments(assignments);
      await withCli(async (ctx) => {
        const serialNumber = ctx.serialNumber(opts.bot);
        await ctx.client.edit({ serialNumber, ...changes });
        await new ChatbotSettingsMirror(ctx.state, 0).merge(serialNumber, changes);
        process.stdout.write(`Updated ${Object.keys(changes).join(', ')} of ${serialNumber}.\n`);
      });
    });

  const listings = program.command('listings').description('real-estate listings of a chatbot');
  listings
    .command('list')
    .option('--bot <id>')
    .option('--city <name>')
    .option('--sale-type <for_sale|for_rent>')
    .option('--mls <number>')
    .option('--page <n>', 'page number', '1')
    .option('--size <n>', 'page size', '20')
    .action(
      async (opts: { bot?: string; city?: string; saleType?: SaleType; mls?: string; page: string; size: string }) => {
        await withCli(async (ctx) =>
          printJson(
            await ctx.client.listListings({
              SerialNumber: ctx.serialNumber(opts.bot),
              PageNumber: Number(opts.page),
              PageSize: Number(opts.size),
              ...(opts.city ? { CityName: opts.city } : {}),
              ...(opts.saleType ? { SaleType: opts.saleType } : {}),
              ...(opts.mls ? { MLSNumber: opts.mls } : {}),
            }),
          ),
        );
      },
    );
  listings
    .command('create')
    .argument('<file>', 'a JSON file with one listing (RealEstateCreate fields) or an array of them')
    .option('--bot <id>')
    .action(async (file: string, opts: { bot?: string }) => {
      // Every listing checked before any is created: a file is created whole or not at all (as far as the service allows).
      const listings = await readListingFile(file);
      await withCli(async (ctx) => {
        for (const listing of listings) {
          const id = await ctx.client.createListing({ ...listing, SerialNumber: ctx.serialNumber(opts.bot) });
          process.stdout.write(`${id}\n`);
        }
      });
    });
  listings
    .command('delete')
    .argument('<keys...>')
    .option('--bot <id>')
    .option('--key-type <NewOaks|MLSNumber|URL>', 'what the keys are', 'NewOaks')
    .action(async (keys: string[], opts: { bot?: string; keyType: DeleteKeyType }) => {
      await withCli(async (ctx) =>
        printJson(
          await ctx.client.deleteListings({
            SerialNumber: ctx.serialNumber(opts.bot),
            Keys: keys,
            KeyType: opts.keyType,
          }),
        ),
      );
    });

  program
    .command('models')
    .description('the AI models the service offers (ModelList)')
    .action(async () => {
      await withCli(async (ctx) => printJson(await ctx.client.modelList()));
    });

  const sessions = program.command('sessions').description('the map of platform conversations to service sessions');
  sessions
    .command('reset')
    .argument('<platform>')
    .argument('<conversation>')
    .option('--bot <id>', 'bot id', 'main')
    .description('forget the session: the next message starts a new one')
    .action(async (platform: string, conversation: string, opts: { bot: string }) => {
      await withCli(async (ctx) => {
        await new SessionMap(ctx.state, ctx.client).reset({ bot: opts.bot, platform, id: conversation });
        process.stdout.write(`Session of ${platform}:${conversation} reset.\n`);
      });
    });
}
