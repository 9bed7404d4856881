// Game clocks on the page. The server owns the time: each event brings both sides' time left and
// which side's clock runs; between events the page counts the running side down from the moment the
// event arrived, so the shown time is never ahead of the server's. Low time (under 10 s, or under a
// tenth of the starting time) is marked with a class and, for one's own clock, a short tone made with
// the Web Audio API (sounds.js: no sound files), unless the mute switch, remembered in localStorage, is on.

import { muted, play, setMuted } from './sounds.js';

export { muted, setMuted }; // the mute switch lives with the other sounds (sounds.js)
const LOW_MS = 10000;

export function beep() {
  play('low');
}

export function formatClock(ms, days) {
  ms = Math.max(0, ms);
  if (days && ms >= 86400000) {
    const d = Math.floor(ms / 86400000);
    const h = Math.floor((ms % 86400000) / 3600000);
    return `${d}d ${h}h`;
  }
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  if (h) return `${h}:${String(m).padStart(2, '0')}:${s}`;
  if (ms < LOW_MS) return `${m}:${s}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${s}`;
}

export class Clocks {
  // elements: {top, bottom} (the clock elements beside the players); seat: the viewer's colour or null
  constructor(elements, seat) {
    this.el = elements;
    this.seat = seat;
    this.clock = null;
    this.at = 0;
    this.orientation = 'white';
    this.warned = false;
    this.timer = null;
  }

  update(clock, playing) {
    this.clock = clock;
    this.playing = playing;
    this.at = performance.now();
    if (clock && !this.timer) this.timer = setInterval(() => this.draw(), 100);
    if (!clock && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    this.draw();
  }

  setOrientation(orientation) {
    this.orientation = orientation;
    this.draw();
  }

  left(color) {
    const c = this.clock;
    const ms = c[color];
    return c.running === color && this.playing ? ms - (performance.now() - this.at) : ms;
  }

  draw() {
    const c = this.clock;
    for (const [where, el] of Object.entries(this.el)) {
      el.hidden = !c;
      if (!c) continue;
      const color = (where === 'bottom') === (this.orientation === 'white') ? 'white' : 'black';
      const ms = this.left(color);
      const period = c.control.days ? c.control.days * 86400000 : c.control.base * 1000;
      const low = ms < LOW_MS || ms < period / 10;
      el.textContent = formatClock(ms, c.control.days);
      el.dataset.color = color;
      el.classList.toggle('running', c.running === color && this.playing);
      el.classList.toggle('low', low && !c.control.days);
      el.classList.toggle('flagged', ms <= 0);
      if (color === this.seat && low && !c.control.days && c.running === color && this.playing && !this.warned) {
        this.warned = true;
        beep();
      }
      if (color === this.seat && !low) this.warned = false;
    }
  }
}
