// Short synthesized sounds (Web Audio) and the mute switch. A game's board says what a sound is.
export const Sound = (() => {
  let ctx = null;
  let muted = localStorage.getItem("bestiary.muted") === "1";
  // voice: [waveform, start Hz, end Hz, pulses, seconds per pulse]
  // `always`: an alert the player turned on by itself (alerts.js), whatever the game's switch says
  function play(voice, always = false) {
    if ((muted && !always) || !voice) return;
    try {
      ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
      const [wave, f0, f1, pulses, dur] = voice;
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
  }
  return { play, setMuted, toggle: () => setMuted(!muted), isMuted: () => muted };
})();
