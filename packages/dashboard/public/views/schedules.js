import { fold, h, pre, statusBadge } from '../dom.js';
import { describeTime } from '../format.js';
import { actionButton } from './common.js';

/** Schedules: when each runs in words (as `ankole schedules` says it), its next runs, and cancel. */
export const schedulesView = {
  title: () => 'Schedules',
  load: (ctx) => ctx.rpc('schedules.list', { agentId: ctx.agentId, includeInactive: true }),
  render(schedules, ctx) {
    return h(
      'div',
      {},
      h('h1', {}, 'Schedules ', h('span', { class: 'muted' }, `of agent ${ctx.agentId}`)),
      schedules.length === 0
        ? h('p', { class: 'muted' }, 'No schedules.')
        : h(
            'ul',
            { class: 'cards', 'aria-label': 'Schedules' },
            schedules.map((schedule) =>
              h(
                'li',
                { class: 'card', 'data-schedule': schedule.id },
                h('h2', {}, schedule.title, ' ', statusBadge(schedule.status)),
                h('p', {}, schedule.description),
                schedule.nextRunTimes.length === 0
                  ? h('p', { class: 'muted' }, 'It will not run again.')
                  : h('p', {}, 'Next: ', schedule.nextRunTimes.slice(0, 3).map((time, index) => [index > 0 ? ', ' : '', h('time', { datetime: time }, describeTime(time, schedule.timeZone ?? undefined))])),
                h('p', { class: 'muted' }, `Ran ${schedule.fireCount} time${schedule.fireCount === 1 ? '' : 's'}${schedule.lastFiredAt ? `, last ${describeTime(schedule.lastFiredAt)}` : ''}`),
                fold(`${schedule.id}-prompt`, 'Prompt', pre(schedule.prompt)),
                schedule.status === 'active' ? actionButton('Cancel schedule', async () => (await ctx.rpc('schedules.cancel', { agentId: ctx.agentId, scheduleId: schedule.id }), 'Schedule cancelled.'), ctx, { class: 'danger', 'data-key': `cancel-${schedule.id}` }) : null,
              ),
            ),
          ),
    );
  },
};
