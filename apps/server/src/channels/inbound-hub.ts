import type { AckUpdate, DriverContext, InboundMessage, InboundOutcome } from './channel-driver.js';

/** A message subscriber; the pipeline answers what became of the message (other subscribers may answer nothing). */
export type MessageListener = (whatsappId: number, message: InboundMessage) => void | InboundOutcome | Promise<void | InboundOutcome>;
export type AckListener = (whatsappId: number, update: AckUpdate) => void | Promise<void>;
export type HistoryListener = (whatsappId: number, messages: InboundMessage[]) => void | Promise<void>;

type Listener<A extends unknown[]> = (...args: A) => void | Promise<void>;

/**
 * Fans out what drivers receive to subscribers (the tickets pipeline). A message is handled once every
 * subscriber finished with it: `message()` waits for them and fails when one failed, so a driver never
 * counts a message as handled before it is stored. Acks and history are fire-and-forget (logged, never thrown).
 */
export class InboundHub {
  private readonly messageListeners = new Set<MessageListener>();
  private readonly ackListeners = new Set<AckListener>();
  private readonly historyListeners = new Set<HistoryListener>();

  constructor(private readonly log: DriverContext['log']) {}

  onMessage(listener: MessageListener): () => void {
    return this.add(this.messageListeners, listener);
  }

  onAck(listener: AckListener): () => void {
    return this.add(this.ackListeners, listener);
  }

  onHistory(listener: HistoryListener): () => void {
    return this.add(this.historyListeners, listener);
  }

  /**
   * Runs every message subscriber and waits for all of them. 'duplicate' when a subscriber found the message
   * already stored and none stored it now; 'ignored' when one ignored it and none stored it; else 'stored'.
   * Rejects with the first failure, after every subscriber has settled.
   */
  async message(whatsappId: number, message: InboundMessage): Promise<InboundOutcome> {
    const results = await Promise.allSettled(
      [...this.messageListeners].map(async (listener) => listener(whatsappId, message)),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      this.log.error({ err: failed.reason as unknown, whatsappId, kind: 'message', messageId: message.id }, 'inbound message not stored');
      throw failed.reason;
    }
    const outcomes = results.map((r) => (r as PromiseFulfilledResult<void | InboundOutcome>).value);
    if (outcomes.includes('stored')) return 'stored';
    if (outcomes.includes('duplicate')) return 'duplicate';
    if (outcomes.includes('ignored')) return 'ignored';
    return 'stored';
  }

  ack(whatsappId: number, update: AckUpdate): void {
    this.dispatch(this.ackListeners, 'ack', whatsappId, update);
  }

  history(whatsappId: number, messages: InboundMessage[]): void {
    this.dispatch(this.historyListeners, 'history', whatsappId, messages);
  }

  private add<L>(set: Set<L>, listener: L): () => void {
    set.add(listener);
    return () => set.delete(listener);
  }

  private dispatch<A>(set: Set<Listener<[number, A]>>, kind: string, whatsappId: number, payload: A): void {
    for (const listener of set) {
      const fail = (err: unknown) => this.log.error({ err, whatsappId, kind }, 'inbound listener failed');
      try {
        const result = listener(whatsappId, payload);
        if (result instanceof Promise) result.catch(fail);
      } catch (err) {
        fail(err);
      }
    }
  }
}
