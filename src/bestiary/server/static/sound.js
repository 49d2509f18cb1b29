// Each creature's Call as a short synthesized sound (Web Audio), with a mute switch.
"use strict";
const Sound = (() => {
  let ctx = null;
  let muted = localStorage.getItem("bestiary.muted") === "1";
  // [waveform, start Hz, end Hz, pulses, seconds per pulse]: distinct in pitch, timbre and rhythm
  const voices = {
    megalotaur: ["sawtooth", 110, 70, 1, 0.45],   // a low roar
    snerlep: ["square", 880, 660, 2, 0.09],      // two sharp snips
    fizzalisk: ["sawtooth", 1800, 2400, 1, 0.35], // a fizzing buzz
    wiffaloon: ["sine", 300, 600, 2, 0.25],       // a rising hoot, twice
    skeevil: ["triangle", 1500, 1200, 3, 0.07],   // three quick squeaks
  };
  function play(creature) {
    if (muted || !voices[creature]) return;
    try {
      ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
      const [wave, f0, f1, pulses, dur] = voices[creature];
      let t = ctx.currentTime + 0.01;
      for (let i = 0; i < pulses; i++) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = wave;
        osc.frequency.setValueAtTime(f0, t);
        osc.frequency.exponentialRampToValueAtTime(f1, t + dur);
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + dur);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + dur + 0.02);
        t += dur + 0.05;
      }
    } catch (err) { /* no audio here: the game works without sound */ }
  }
  function setMuted(value) {
    muted = value;
    localStorage.setItem("bestiary.muted", value ? "1" : "0");
    const button = document.getElementById("mute");
    button.textContent = value ? "sound: off" : "sound: on";
    button.setAttribute("aria-pressed", String(value));
  }
  return { play, setMuted, toggle: () => setMuted(!muted), isMuted: () => muted };
})();
