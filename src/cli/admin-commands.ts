import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ChatbotSettingsMirror, SessionMap } from '../gateway/index.js';
import type { ChatbotSettingsEdit, DeleteKeyType, ListingInput, SaleType } from '../upstream/api.js';
import { printJson, withCli } from './context.js';

/** `KEY=VALUE` → typed value: true/false and integers become booleans and numbers. */
export function parseAssignment(text: string): [string, string | number | boolean] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new Error(`"${text}" is not KEY=VALUE (e.g. WelcomeMessage="Hi there")`);
  const key = text.slice(0, eq);
  const raw = text.slice(eq + 1);
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  if (/^-?\d+$/.test(raw)) return [key, Number(raw)];
  return [key, raw];
}

export function registerAdminCommands(program: Command): void {
  const settings = program.command('settings').description("a chatbot's settings (Edit); the gateway keeps a copy since the API cannot read them");
  settings.command('get').option('--bot <id>').description("print the gateway's copy of the settings").action(async (opts: { bot?: string }) => {
    await withCli(async (ctx) => printJson(await new ChatbotSettingsMirror(ctx.state, 0).get(ctx.serialNumber(opts.bot))));
  });
  settings.command('set').argument('<assignments...>', 'KEY=VALUE pairs, e.g. WelcomeMessage="Hello" RateLimitCount=5').option('--bot <id>')
    .description('Edit the chatbot at the service, then update the gateway copy').action(async (assignments: string[], opts: { bot?: string }) => {
      await withCli(async (ctx) => {
        const serialNumber = ctx.serialNumber(opts.bot);
        const changes = Object.fromEntries(assignments.map(parseAssignment));
        await ctx.client.edit({ serialNumber, ...changes } as ChatbotSettingsEdit);
        await new ChatbotSettingsMirror(ctx.state, 0).merge(serialNumber, changes);
        process.stdout.write(`Updated ${Object.keys(changes).join(', ')} of ${serialNumber}.\n`);
      });
    });

  const listings = program.command('listings').description('real-estate listings of a chatbot');
  listings.command('list').option('--bot <id>').option('--city <name>').option('--sale-type <for_sale|for_rent>').option('--mls <number>').option('--page <n>', 'page number', '1').option('--size <n>', 'page size', '20')
    .action(async (opts: { bot?: string; city?: string; saleType?: SaleType; mls?: string; page: string; size: string }) => {
      await withCli(async (ctx) => printJson(await ctx.client.listListings({
        SerialNumber: ctx.serialNumber(opts.bot), PageNumber: Number(opts.page), PageSize: Number(opts.size),
        ...(opts.city ? { CityName: opts.city } : {}), ...(opts.saleType ? { SaleType: opts.saleType } : {}), ...(opts.mls ? { MLSNumber: opts.mls } : {}),
      })));
    });
  listings.command('create').argument('<file>', 'a JSON file with one listing (RealEstateCreate fields) or an array of them').option('--bot <id>')
    .action(async (file: string, opts: { bot?: string }) => {
      await withCli(async (ctx) => {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as ListingInput | ListingInput[];
        for (const listing of Array.isArray(parsed) ? parsed : [parsed]) {
          const id = await ctx.client.createListing({ ...listing, SerialNumber: ctx.serialNumber(opts.bot) });
          process.stdout.write(`${id}\n`);
        }
      });
    });
  listings.command('delete').argument('<keys...>').option('--bot <id>').option('--key-type <NewOaks|MLSNumber|URL>', 'what the keys are', 'NewOaks')
    .action(async (keys: string[], opts: { bot?: string; keyType: DeleteKeyType }) => {
      await withCli(async (ctx) => printJson(await ctx.client.deleteListings({ SerialNumber: ctx.serialNumber(opts.bot), Keys: keys, KeyType: opts.keyType })));
    });

  program.command('models').description('the AI models the service offers (ModelList)').action(async () => {
    await withCli(async (ctx) => printJson(await ctx.client.modelList()));
  });

  const sessions = program.command('sessions').description('the map of platform conversations to service sessions');
  sessions.command('reset').argument('<platform>').argument('<conversation>').option('--bot <id>', 'bot id', 'main')
    .description('forget the session: the next message starts a new one').action(async (platform: string, conversation: string, opts: { bot: string }) => {
      await withCli(async (ctx) => {
        await new SessionMap(ctx.state, ctx.client).reset({ bot: opts.bot, platform, id: conversation });
        process.stdout.write(`Session of ${platform}:${conversation} reset.\n`);
      });
    });
}
