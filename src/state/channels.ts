/** The listeners of each pub/sub channel of one store, shared by the memory and the Redis stores. */
export type ChannelListener = (message: string) => void;

export interface SubscribeOptions {
  /**
   * Told when the store's subscription is back after its connection was lost: messages published
   * meanwhile were missed (pub/sub delivers at most once), so the subscriber can catch up.
   */
  onResubscribed?: () => void;
}

interface Subscription {
  listener: ChannelListener;
  onResubscribed: (() => void) | undefined;
}

export class Channels {
  private readonly subscriptions = new Map<string, Set<Subscription>>();

  /** @param onListenerError where a listener's exception goes (a listener must not break delivery to the others). */
  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Adds a listener; true when it is the channel's first (the store subscribes then). */
  add(
    channel: string,
    listener: ChannelListener,
    options: SubscribeOptions = {},
  ): { first: boolean; remove: () => boolean } {
    let set = this.subscriptions.get(channel);
    const first = !set;
    if (!set) this.subscriptions.set(channel, (set = new Set()));
    const subscription: Subscription = { listener, onResubscribed: options.onResubscribed };
    set.add(subscription);
    let removed = false;
    return {
      first,
      /** Removes the listener (once); true when the channel has no listener left (the store unsubscribes then). */
      remove: () => {
        if (removed) return false;
        removed = true;
        set.delete(subscription);
        if (set.size > 0 || this.subscriptions.get(channel) !== set) return false;
        this.subscriptions.delete(channel);
        return true;
      },
    };
  }

  deliver(channel: string, message: string): void {
    const set = this.subscriptions.get(channel);
    if (!set) return;
    for (const { listener } of [...set]) {
      try {
        listener(message);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  resubscribed(): void {
    for (const set of this.subscriptions.values()) {
      for (const { onResubscribed } of [...set]) {
        try {
          onResubscribed?.();
        } catch (error) {
          this.onListenerError(error);
        }
      }
    }
  }

  get names(): string[] {
    return [...this.subscriptions.keys()];
  }
}
