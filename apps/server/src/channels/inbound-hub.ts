import type { AckUpdate, DriverContext, InboundMessage } from './channel-driver.js';

export type MessageListener = (whatsappId: number, message: InboundMessage) => void | Promise<void>;
export type AckListener = (whatsappId: number, update: AckUpdate) => void | Promise<void>;
export type HistoryListener = (whatsappId: number, messages: InboundMessage[]) => void | Promise<void>;

type Listener<A extends unknown[]> = (...args: A) => void | Promise<void>;

/** Fans out what drivers receive to subscribers (the tickets pipeline); a failing subscriber is logged, never thrown. */
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

  message(whatsappId: number, message: InboundMessage): void {
    this.dispatch(this.messageListeners, 'message', whatsappId, message);
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
