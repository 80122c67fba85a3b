/**
 * §9: the user, contact, sign-up and connection forms wait 400 ms after Submit before they send (the spinner shows,
 * a second click finds the form submitting).
 */
export const MODAL_SUBMIT_DELAY_MS = 400;

export function submitDelay(ms = MODAL_SUBMIT_DELAY_MS): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
