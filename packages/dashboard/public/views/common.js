import { ApiError } from '../api.js';
import { h } from '../dom.js';

/** A button that runs `action` once at a time, saying what happened in the live region. */
export function actionButton(label, action, ctx, attributes = {}) {
  const button = h('button', {
    type: 'button',
    ...attributes,
    onclick: async () => {
      button.disabled = true;
      try {
        const message = await action();
        if (message) ctx.say(message);
      } catch (failure) {
        ctx.say(failure instanceof ApiError ? failure.message : String(failure));
        window.alert(failure instanceof ApiError ? failure.message : String(failure));
      } finally {
        button.disabled = false;
        await ctx.refresh();
      }
    },
  }, label);
  return button;
}

/** `{ a: 1 }` as a definition list of label → value. */
export function facts(entries) {
  return h('dl', { class: 'facts' }, entries.filter(([, value]) => value !== undefined && value !== null && value !== '').map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

/** A 404 from the control plane as "not found" (another agent's job looks the same as none). */
export async function orNotFound(promise) {
  try {
    return await promise;
  } catch (failure) {
    if (failure instanceof ApiError && (failure.status === 404 || failure.status === 403)) return null;
    throw failure;
  }
}
