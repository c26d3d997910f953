/**
 * Publish/subscribe over Redis, with one subscriber connection per store (so per process), however
 * many listeners: a connection in subscriber mode can send nothing else.
 *
 * A connection of its own, opened at the first subscribe: on one server or Sentinel a duplicate() of
 * the store's connection, on a Cluster a connection to one of its nodes (PUBLISH is broadcast to
 * every node of the cluster, so any node hears every channel). ioredis reconnects it and subscribes
 * again by itself (autoResubscribe), and its `ready` after a reconnect is told to the listeners
 * (onResubscribed). A cluster's node that leaves the cluster's view (down, failed over) is left for
 * another node, the channels subscribed there, and that is told too. Not the Cluster's own subscriber
 * connection: ioredis moves that one from node to node without telling, so missed changes would go
 * unnoticed.
 */
import { Cluster, type Redis } from 'ioredis';
import { Channels, type ChannelListener, type SubscribeOptions } from '../channels.js';

export class RedisPubSub {
  private readonly channels: Channels;
  /** The connection SUBSCRIBE goes to, made at the first subscribe. */
  private subscriber: Redis | undefined;
  /** The first subscribe's wait for a cluster's first node. */
  private opening: Promise<Redis> | undefined;
  /** A channel's SUBSCRIBE until Redis confirms it: a second listener waits for it too. */
  private readonly pending = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly client: Redis | Cluster,
    private readonly onError: (error: Error) => void,
  ) {
    this.channels = new Channels((error) => onError(error instanceof Error ? error : new Error(String(error))));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.client.publish(channel, message);
  }

  async subscribe(
    channel: string,
    listener: ChannelListener,
    options: SubscribeOptions = {},
  ): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('The state store is closed: nothing to subscribe to.');
    const subscriber = await this.connection();
    const { first, remove } = this.channels.add(channel, listener, options);
    if (first) {
      const subscribed = subscriber.subscribe(channel).then(() => undefined);
      this.pending.set(channel, subscribed);
      try {
        await subscribed;
      } catch (error) {
        remove();
        throw error;
      } finally {
        if (this.pending.get(channel) === subscribed) this.pending.delete(channel);
      }
    } else {
      await this.pending.get(channel);
    }
    return async () => {
      if (remove() && !this.closed) await (this.subscriber ?? subscriber).unsubscribe(channel);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.subscriber) await this.subscriber.quit().catch(() => this.subscriber!.disconnect());
  }

  private async connection(): Promise<Redis> {
    if (this.subscriber) return this.subscriber;
    const { client } = this;
    if (!(client instanceof Cluster)) return (this.subscriber = this.open(client, false));
    this.opening ??= (async () => {
      // The cluster knows its nodes once connected.
      if (client.nodes().length === 0) await new Promise((resolve) => client.once('ready', resolve));
      const subscriber = this.open(nodeOf(client), true);
      this.subscriber = subscriber;
      client.on('-node', (node: Redis) => {
        if (!this.closed && this.subscriber && sameNode(node, this.subscriber)) this.move(client, node);
      });
      return subscriber;
    })();
    return this.opening;
  }

  /** A subscriber connection like `base` (a node's or the store's own), told to the listeners when it is back. */
  private open(base: Redis, clusterNode: boolean): Redis {
    const subscriber = base.duplicate({
      connectionName: `${base.options.connectionName ?? 'chatbridge'}:subscriber`,
      // A cluster's node connections give up at once (the cluster finds the slots again); this one waits for its node.
      ...(clusterNode
        ? { retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000), lazyConnect: false }
        : {}),
    });
    let readyBefore = false;
    subscriber.on('ready', () => {
      if (readyBefore) this.channels.resubscribed();
      readyBefore = true;
    });
    // Reported like the store's own connection errors (and with them, at most once per interval).
    subscriber.on('error', this.onError);
    subscriber.on('message', (channel: string, message: string) => this.channels.deliver(channel, message));
    return subscriber;
  }

  /** The subscriber's node left the cluster's view: the channels are subscribed on another node, and the listeners told. */
  private move(cluster: Cluster, gone: Redis): void {
    const others = cluster.nodes().filter((node) => !sameNode(node, gone));
    const node = others[Math.floor(Math.random() * others.length)];
    // No other node known: the subscriber keeps reconnecting to its own.
    if (!node) return;
    const previous = this.subscriber!;
    const next = this.open(node, true);
    this.subscriber = next;
    previous.disconnect();
    const channels = this.channels.names;
    const subscribed = channels.length > 0 ? next.subscribe(...channels) : Promise.resolve();
    subscribed.then(
      () => this.channels.resubscribed(),
      (error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** A node of the cluster to subscribe on. */
function nodeOf(cluster: Cluster): Redis {
  const nodes = cluster.nodes();
  const node = nodes[Math.floor(Math.random() * nodes.length)];
  if (!node) throw new Error('The Redis Cluster has no node to subscribe on yet.');
  return node;
}

function sameNode(a: Redis, b: Redis): boolean {
  return a.options.host === b.options.host && a.options.port === b.options.port;
}
