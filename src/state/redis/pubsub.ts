/**
 * Publish/subscribe over Redis, with one subscriber connection per store (so per process), however
 * many listeners: a connection in subscriber mode can send nothing else.
 *
 * One server or Sentinel: a duplicate() of the store's connection, opened at the first subscribe;
 * ioredis reconnects it and subscribes again by itself (autoResubscribe), and its `ready` after a
 * reconnect is told to the listeners (onResubscribed). A Cluster: ioredis' Cluster keeps a
 * subscriber connection of its own to one node and moves it (with the subscriptions) when that node
 * goes; PUBLISH is broadcast to every node of the cluster, so any node hears every channel.
 * ioredis does not tell when the cluster's subscriber moved, so there onResubscribed is not called.
 */
import { Cluster, type Redis } from 'ioredis';
import { Channels, type ChannelListener, type SubscribeOptions } from '../channels.js';

export class RedisPubSub {
  private readonly channels: Channels;
  /** The connection SUBSCRIBE goes to: the cluster itself, or the duplicate made at the first subscribe. */
  private subscriber: Redis | Cluster | undefined;
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
    const subscriber = this.connection();
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
      if (remove() && !this.closed) await subscriber.unsubscribe(channel);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    // The cluster's own subscriber closes with the cluster.
    if (this.subscriber && this.subscriber !== this.client)
      await (this.subscriber as Redis).quit().catch(() => this.subscriber!.disconnect());
  }

  private connection(): Redis | Cluster {
    if (this.subscriber) return this.subscriber;
    if (this.client instanceof Cluster) {
      this.subscriber = this.client;
    } else {
      const duplicate = this.client.duplicate({
        connectionName: `${this.client.options.connectionName ?? 'chatbridge'}:subscriber`,
      });
      let readyBefore = false;
      duplicate.on('ready', () => {
        if (readyBefore) this.channels.resubscribed();
        readyBefore = true;
      });
      // Reported like the store's own connection errors (and with them, at most once per interval).
      duplicate.on('error', this.onError);
      this.subscriber = duplicate;
    }
    this.subscriber.on('message', (channel: string, message: string) => this.channels.deliver(channel, message));
    return this.subscriber;
  }
}
