// Card sounds made with WebAudio, as the turn chime is: a short burst of filtered noise, no file
// to load. Each kind of move has its own pitch, so that a draw and a discard sound apart.

const PITCH = { draw: 2400, take: 2000, meld: 1500, lay_off: 1700, discard: 900 };
const LENGTH = 0.09; // seconds: a card's slide, not a tune

let audio = null;

/** Play the sound of a card moving (`kind`: a key of PITCH); silent where WebAudio is missing. */
export function cardSound(kind) {
  try {
    audio = audio || new AudioContext();
    const start = audio.currentTime + 0.01;
    const noise = audio.createBuffer(1, Math.ceil(audio.sampleRate * LENGTH), audio.sampleRate);
    const samples = noise.getChannelData(0);
    for (let i = 0; i < samples.length; i += 1) samples[i] = (Math.random() * 2 - 1) * (1 - i / samples.length);
    const source = audio.createBufferSource();
    source.buffer = noise;
    const filter = audio.createBiquadFilter();
    filter.type = 'bandpass';
    filter.frequency.value = PITCH[kind] || PITCH.draw;
    filter.Q.value = 1.2;
    const gain = audio.createGain();
    gain.gain.setValueAtTime(0.35, start);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + LENGTH);
    source.connect(filter).connect(gain).connect(audio.destination);
    source.start(start);
    return true;
  } catch {
    return false; // no audio in this browser: the move is still seen
  }
}
