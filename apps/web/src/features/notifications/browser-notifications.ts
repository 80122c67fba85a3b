const ASKED_KEY = 'notificationsAsked';

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Whether to offer the permission prompt: supported, undecided, never offered before. */
export function shouldOfferPermission(): boolean {
  return notificationsSupported() && Notification.permission === 'default' && localStorage.getItem(ASKED_KEY) !== 'true';
}

export function markPermissionOffered(): void {
  localStorage.setItem(ASKED_KEY, 'true');
}

export async function requestPermission(): Promise<boolean> {
  markPermissionOffered();
  if (!notificationsSupported()) return false;
  return (await Notification.requestPermission()) === 'granted';
}

let audio: AudioContext | null = null;

/** A short two-tone chime, made on the fly (no sound file to ship). */
export function playChime(): void {
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    const now = ctx.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.2);
    }
  } catch {
    /* no audio available */
  }
}

export function showBrowserNotification(title: string, body: string, icon: string | undefined, onClick: () => void): void {
  playChime();
  if (!notificationsSupported() || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(title, { body, icon, tag: title });
    n.onclick = () => {
      window.focus();
      onClick();
      n.close();
    };
  } catch {
    /* some browsers only allow notifications from a service worker */
  }
}
