// The game page's sounds, synthesised with the Web Audio API (no sound files): a move, a capture, a
// check, low time on one's own clock and the end of the game. The mute switch is remembered in
// localStorage. Only events that arrive while the page is open make a sound: the moves of the game as
// loaded (and of a reconnect's full sync) are silent.

const MUTE_KEY = 'hordes-muted';

export function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

export function setMuted(on) {
  try {
    localStorage.setItem(MUTE_KEY, on ? '1' : '0');
  } catch {
    /* private mode: the switch lasts for this page only */
  }
}

// What was asked for, newest last, and whether it sounded (for tests and the curious).
export const played = [];

let audio = null;

function context() {
  audio = audio || new AudioContext();
  if (audio.state === 'suspended') audio.resume();
  return audio;
}

// One tone: frequency glides from f0 to f1 over `seconds`, with a fast attack and a decay.
function tone(ctx, { f0, f1 = f0, start = 0, seconds = 0.12, volume = 0.15, type = 'sine' }) {
  const t = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, t);
  if (f1 !== f0) osc.frequency.exponentialRampToValueAtTime(f1, t + seconds);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + seconds);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + seconds + 0.02);
}

// A short burst of filtered noise: the knock of a piece put down.
function knock(ctx, { start = 0, seconds = 0.06, volume = 0.3, frequency = 900 }) {
  const t = ctx.currentTime + start;
  const length = Math.ceil(ctx.sampleRate * seconds);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = frequency;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(t);
}

const SOUNDS = {
  move: (ctx) => {
    knock(ctx, { frequency: 700 });
    tone(ctx, { f0: 180, f1: 120, seconds: 0.08, volume: 0.12 });
  },
  capture: (ctx) => {
    knock(ctx, { frequency: 1400, seconds: 0.09, volume: 0.4 });
    knock(ctx, { frequency: 500, start: 0.05, seconds: 0.08, volume: 0.3 });
    tone(ctx, { f0: 150, f1: 80, seconds: 0.12, volume: 0.14 });
  },
  check: (ctx) => {
    knock(ctx, { frequency: 700 });
    tone(ctx, { f0: 660, start: 0.02, seconds: 0.1, volume: 0.1, type: 'triangle' });
    tone(ctx, { f0: 880, start: 0.12, seconds: 0.14, volume: 0.1, type: 'triangle' });
  },
  low: (ctx) => tone(ctx, { f0: 880, seconds: 0.15 }),
  end: (ctx) => {
    [523, 659, 784].forEach((f, i) => tone(ctx, { f0: f, start: i * 0.12, seconds: 0.35, volume: 0.1, type: 'triangle' }));
  },
};

// Play one of 'move', 'capture', 'check', 'low', 'end' (nothing when muted).
export function play(kind) {
  const on = !muted() && kind in SOUNDS;
  played.push({ kind, sounded: on });
  if (played.length > 50) played.shift();
  if (!on) return;
  try {
    SOUNDS[kind](context());
  } catch {
    /* no audio here: the page works without it */
  }
}

// The sound of a move event from the server (`msg`: its position view, see web/positions.py).
export function playMove(msg) {
  const facts = msg.last_move_facts || {};
  play(msg.check && msg.check.length ? 'check' : facts.capture ? 'capture' : 'move');
  if (msg.status === 'over') play('end');
}
