// Spellpress preview: asks the server what it shows a few times a second and swaps in only the
// images whose digest moved, so an edited card appears in place while the rest stay put.
"use strict";

(function () {
  const POLL_MS = 250;
  let shown = -1;
  const known = new Map(); // image key -> src

  function h(tag, props, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "text") el.textContent = v; else el.setAttribute(k, v);
    }
    el.append(...children);
    return el;
  }

  function image(key, src, alt) {
    const img = h("img", { src, alt, loading: "lazy", "data-key": key });
    known.set(key, src);
    return img;
  }

  function refresh(img, key, src) {
    if (known.get(key) === src) return false;
    known.set(key, src);
    img.src = src;
    img.closest("figure")?.classList.add("changed");
    return true;
  }

  function drawGame(slug, game) {
    let section = document.getElementById(`game-${slug}`);
    if (!section) {
      section = h("section", { id: `game-${slug}` });
      document.getElementById("games").append(section);
    }
    const cards = game.cards.map((c) => ({ key: `${slug}/card/${c.id}`, src: `/card/${slug}/${c.id}.png?d=${c.digest}`, c }));
    const pages = (which) => game[which] ? Array.from({ length: game[which].pages }, (_, i) => ({
      key: `${slug}/${which}/${i}`, src: `/page/${slug}/${which}/${i}.png?d=${game[which].digest}`, i })) : [];
    const rule = pages("rulebook");
    const mat = pages("playmat");
    const layout = [...cards, ...rule, ...mat].map((x) => x.key).join("|");
    if (section.dataset.layout !== layout) {  // cards added, removed or reordered: draw it anew
      section.dataset.layout = layout;
      section.replaceChildren(
        h("h2", { class: "game", text: game.title }),
        h("h3", { text: `Cards (${cards.length})` }),
        h("div", { class: "cards" }, ...cards.map(({ key, src, c }) =>
          h("figure", { "data-card": c.id }, image(key, src, c.name), h("figcaption", { text: `${c.name} · ${c.id}` })))),
        h("h3", { text: "Rulebook (A4)" }),
        h("div", { class: "pages" }, ...rule.map(({ key, src, i }) => image(key, src, `Rulebook page ${i + 1}`))),
        h("h3", { text: "Playmat" }),
        h("div", { class: "mat" }, ...mat.map(({ key, src }) => image(key, src, "Playmat"))));
      return;
    }
    section.querySelectorAll("figure.changed").forEach((f) => f.classList.remove("changed"));
    for (const { key, src } of [...cards, ...rule, ...mat]) {
      const img = section.querySelector(`img[data-key="${CSS.escape(key)}"]`);
      if (img) refresh(img, key, src);
    }
  }

  async function poll() {
    try {
      const response = await fetch("/state", { cache: "no-store" });
      const state = await response.json();
      const status = document.getElementById("status");
      status.textContent = state.building ? "building…" : state.at ? `drawn at ${state.at}` : "building…";
      if (state.version !== shown) {
        shown = state.version;
        const box = document.getElementById("problems");
        box.hidden = !state.problems.length;
        document.getElementById("problem-list").replaceChildren(...state.problems.map((p) => h("li", { text: p })));
        for (const [slug, game] of Object.entries(state.games)) drawGame(slug, game);
        document.body.dataset.version = String(state.version);
      }
    } catch (err) {
      document.getElementById("status").textContent = "the preview server stopped";
    }
    setTimeout(poll, POLL_MS);
  }

  poll();
})();
