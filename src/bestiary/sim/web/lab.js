// The lab page (bestiary lab, docs/lab.md): choices in, a run's progress, its report out.
// Everything shown comes from the lab's own API; text is set as text, never as markup.

const $ = (id) => document.getElementById(id);
const POLL_MS = 200;
let games = [];

function element(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function showError(sentence) {
  const box = $("error");
  box.textContent = sentence;
  box.hidden = !sentence;
}

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

function fillGame() {
  const game = currentGame();
  const players = $("players");
  players.min = game.min_players;
  players.max = game.max_players;
  players.value = Math.max(game.min_players, Math.min(game.max_players, 4));
  $("bots").value = game.default_bot;
  const list = $("bot-list");
  list.replaceChildren();
  for (const bot of game.bots) {
    const item = element("li");
    item.append(element("strong", bot.name), document.createTextNode(": " + bot.description));
    if (bot.params.length) {
      const params = element("ul");
      for (const p of bot.params) {
        params.append(element("li",
          `${p.name}=${p.default} (${p.minimum} to ${p.maximum}): ${p.description}`));
      }
      item.append(params);
    }
    list.append(item);
  }
  const options = $("options");
  options.replaceChildren();
  for (const spec of game.options) {
    const id = "option-" + spec.name;
    const label = element("label", spec.name + " ", { for: id });
    label.append(element("span", spec.description, { class: "hint" }));
    const shown = spec.default === null ? "none" : String(spec.default);
    const input = element("input", null, {
      id, type: "text", "data-option": spec.name, autocomplete: "off", spellcheck: "false",
      placeholder: "default: " + shown + (spec.choices.length ? " (" + spec.choices.join(", ") + ")" : ""),
    });
    options.append(label, input);
  }
}

function showQuestion() {
  const question = document.querySelector("input[name=question]:checked").value;
  for (const node of document.querySelectorAll("[data-for]")) {
    node.hidden = node.dataset.for !== question;
  }
}

function lines(id) {
  return $(id).value.split("\n").map((l) => l.trim()).filter((l) => l);
}

function choices() {
  const question = document.querySelector("input[name=question]:checked").value;
  const options = [];
  for (const input of document.querySelectorAll("[data-option]")) {
    if (input.value.trim()) options.push(input.dataset.option + "=" + input.value.trim());
  }
  return {
    game: $("game").value,
    players: $("players").value,
    bots: $("bots").value,
    games: $("games").value,
    seed: $("seed").value,
    jobs: $("jobs").value,
    backend: $("backend").value,
    options,
    compare: question === "compare" ? lines("compare") : [],
    sweep: question === "sweep" ? lines("sweep") : [],
    grid: question === "grid" ? lines("grid") : [],
  };
}

async function asJson(response) {
  try {
    return await response.json();
  } catch {
    return { error: `the lab answered ${response.status} without a reason` };
  }
}

function showProgress(status) {
  const bar = $("progress");
  bar.max = Math.max(1, status.total);
  bar.value = status.done;
  $("progress-text").textContent = `${status.done.toLocaleString("en")} of ` +
    `${status.total.toLocaleString("en")} games played`;
  $("run-command").textContent = status.command;
}

function command(text) {
  return element("code", text, { class: "command" });
}

function showReport(report) {
  $("report-command").textContent = report.command;
  const downloads = $("downloads");
  downloads.replaceChildren();
  for (const d of report.downloads) {
    const item = element("li");
    const link = element("a", `every game, one row each (${d.format.toUpperCase()})`,
      { href: d.href, download: "", id: "download-" + d.format });
    item.append(link, document.createTextNode(": "), command(d.command));
    downloads.append(item);
  }
  const figures = $("figures");
  figures.replaceChildren();
  for (const f of report.figures) {
    const figure = element("figure", null, { class: "figure", "data-heading": f.heading });
    if (f.png) {
      figure.append(element("img", null, { src: "data:image/png;base64," + f.png, alt: f.heading }));
    } else {
      figure.append(element("p", f.sentence || "nothing to draw"));
    }
    const caption = element("figcaption");
    caption.append(element("strong", f.heading), element("br"),
      document.createTextNode(f.file ? `${f.file}, from ` : "from "), command(f.command));
    figure.append(caption);
    figures.append(figure);
  }
  $("text-command").textContent = report.command;
  $("sentences").textContent = report.text;
  $("report").hidden = false;
}

async function follow(run) {
  for (;;) {
    const response = await fetch(`/api/runs/${run}`);
    const status = await asJson(response);
    if (!response.ok) return showError(status.error);
    showProgress(status);
    if (status.state === "failed") return showError(status.error);
    if (status.state === "done") {
      const answer = await fetch(`/api/runs/${run}/report`);
      const report = await asJson(answer);
      if (!answer.ok) return showError(report.error);
      return showReport(report);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function play(event) {
  event.preventDefault();
  showError("");
  $("report").hidden = true;
  const button = $("run");
  button.disabled = true;
  try {
    const response = await fetch("/api/runs", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(choices()),
    });
    const status = await asJson(response);
    if (!response.ok) return showError(status.error);
    $("running").hidden = false;
    showProgress(status);
    await follow(status.run);
  } catch (err) {
    showError("the lab stopped answering: is bestiary lab still running?");
  } finally {
    button.disabled = false;
  }
}

async function start() {
  const response = await fetch("/api/choices");
  const data = await response.json();
  games = data.games;
  for (const game of games) $("game").append(element("option", game.title || game.name, { value: game.name }));
  for (const backend of data.backends) $("backend").append(element("option", backend, { value: backend }));
  $("jobs").max = data.cores;
  $("game").addEventListener("change", fillGame);
  for (const radio of document.querySelectorAll("input[name=question]")) {
    radio.addEventListener("change", showQuestion);
  }
  $("choices").addEventListener("submit", play);
  fillGame();
  showQuestion();
  document.body.dataset.ready = "true";
}

start();
