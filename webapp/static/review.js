// The review page: tie each number's field to its box on the photo, offer the scanner's alternatives,
// add and remove numbers. The form works without this script except for adding numbers.
"use strict";

(function () {
  const form = document.querySelector(".review-form");
  if (!form) return;
  const boxes = new Map();
  document.querySelectorAll("svg rect.box").forEach((rect) => boxes.set(rect.dataset.key, rect));

  function rowOf(element) { return element.closest("li.number"); }

  // The photo's size in its own pixels (the boxes' coordinates), from the overlay's viewBox.
  const svg = document.querySelector(".photo svg");
  const [, , photoWidth, photoHeight] = svg ? svg.getAttribute("viewBox").split(" ").map(Number) : [0, 0, 0, 0];
  const loupe = document.getElementById("loupe");

  function magnify(rect) {
    if (!loupe || !rect) { if (loupe) loupe.hidden = true; return; }
    loupe.hidden = false;
    const [x, y, w, h] = ["x", "y", "width", "height"].map((name) => Number(rect.getAttribute(name)));
    const width = loupe.clientWidth, height = loupe.clientHeight;
    // Show about four times the number's box around it, never more than twice the photo's own pixels.
    const scale = Math.min(2, width / (4 * Math.max(w, h)), height / (3 * Math.max(w, h)));
    // A square view around the number, turned so that the sheet stands upright (the scan's rotation),
    // large enough to fill the loupe at any turn.
    const side = Math.ceil(Math.hypot(width, height));
    const view = loupe.firstElementChild;
    Object.assign(view.style, {width: side + "px", height: side + "px", left: (width - side) / 2 + "px",
                               top: (height - side) / 2 + "px",
                               transform: "rotate(" + -Number(loupe.dataset.rotation) + "deg)"});
    const left = (x + w / 2) * scale - side / 2, top = (y + h / 2) * scale - side / 2;
    view.style.backgroundSize = photoWidth * scale + "px " + photoHeight * scale + "px";
    view.style.backgroundPosition = -left + "px " + -top + "px";
    const box = view.firstElementChild;
    box.style.left = x * scale - left - 3 + "px";
    box.style.top = y * scale - top - 3 + "px";
    box.style.width = w * scale + 2 + "px";
    box.style.height = h * scale + 2 + "px";
  }

  function highlight(key, on) {
    const rect = boxes.get(key);
    if (rect) rect.classList.toggle("active", on);
    if (on) magnify(rect);
  }

  function refresh(row) {
    row.classList.toggle("crossed", row.querySelector(".crossed-box").checked);
    row.classList.toggle("removed", row.querySelector(".remove-box").checked);
    const rect = boxes.get(row.dataset.key);
    if (rect) {
      rect.classList.toggle("crossed", row.classList.contains("crossed"));
      rect.classList.toggle("removed", row.classList.contains("removed"));
    }
  }

  // A fresh key per zone: one more than any key already on the page.
  function freshKey(zone) {
    let most = -1;
    zone.querySelectorAll("li.number").forEach((row) => {
      const k = Number(row.dataset.key.split("-")[1]);
      if (k > most) most = k;
    });
    return "z" + zone.dataset.zone + "-" + (most + 1);
  }

  function newRow(zone) {
    const row = document.getElementById("number-row").content.firstElementChild.cloneNode(true);
    const key = freshKey(zone);
    row.dataset.key = key;
    row.querySelector("input.value").name = key + "-value";
    row.querySelector("input.value").setAttribute("aria-label", zone.querySelector("h3").textContent + ": new number");
    row.querySelectorAll("[data-part]").forEach((input) => { input.name = key + "-" + input.dataset.part; });
    return row;
  }

  // Enter in a number goes on to the next one, as on paper; the buttons save.
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.matches("input.value")) return;
    event.preventDefault();
    const fields = [...form.querySelectorAll("input.value")];
    const next = fields[fields.indexOf(event.target) + 1];
    if (next) { next.focus(); next.select(); }
  });

  form.addEventListener("focusin", (event) => {
    const row = rowOf(event.target);
    if (row) highlight(row.dataset.key, true);
  });
  form.addEventListener("focusout", (event) => {
    const row = rowOf(event.target);
    if (row) highlight(row.dataset.key, false);
  });

  form.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.classList.contains("alt")) {
      const input = rowOf(button).querySelector("input.value");
      input.value = button.dataset.value;
      input.focus();
    } else if (button.classList.contains("add-number")) {
      const zone = button.closest("section.zone");
      const row = newRow(zone);
      zone.querySelector("ol.numbers").appendChild(row);
      row.querySelector("input.value").focus();
    } else if (button.classList.contains("insert-after")) {
      const here = rowOf(button);
      const row = newRow(button.closest("section.zone"));
      here.after(row);
      row.querySelector("input.value").focus();
    }
  });

  // Nothing typed is lost by leaving the page by mistake: the browser asks first.
  let dirty = false;
  form.addEventListener("input", () => { dirty = true; });
  form.addEventListener("submit", () => { dirty = false; });
  window.addEventListener("beforeunload", (event) => {
    if (dirty) { event.preventDefault(); event.returnValue = ""; }
  });

  form.addEventListener("change", (event) => {
    dirty = true;
    const row = rowOf(event.target);
    if (row && event.target.type === "checkbox") refresh(row);
  });

  // As you type, the server says what the rules think of the form as it stands (nothing is saved).
  const problems = document.getElementById("problems");
  let timer = null;
  let asked = 0;

  function showCheck(result) {
    const list = document.getElementById("problems-list");
    list.replaceChildren();
    const lines = result.problems.slice();
    const wrong = Object.keys(result.errors).length;
    if (wrong) lines.unshift(wrong + (wrong > 1 ? " fields hold" : " field holds") + " an impossible value (marked red)");
    if (lines.length) {
      const ul = document.createElement("ul");
      lines.forEach((text) => { const li = document.createElement("li"); li.textContent = text; ul.appendChild(li); });
      list.appendChild(ul);
    } else {
      const ok = document.createElement("p");
      ok.className = "ok";
      ok.textContent = "No problems: the sheet can be settled.";
      list.appendChild(ok);
    }
    document.getElementById("problems-state").textContent = "the sheet with your changes (not saved yet)";
    const down = new Set(result.goes_down);
    form.querySelectorAll("li.number").forEach((row) => {
      row.classList.toggle("goes-down", down.has(row.dataset.key));
      row.classList.toggle("invalid", row.dataset.key in result.errors);
      const rect = boxes.get(row.dataset.key);
      if (rect) rect.classList.toggle("goes-down", down.has(row.dataset.key));
    });
    form.querySelectorAll(".suspect-note").forEach((note) => note.remove());
  }

  function check() {
    const ticket = ++asked;
    fetch(problems.dataset.check, {method: "POST", body: new URLSearchParams(new FormData(form))})
      .then((response) => (response.ok ? response.json() : null))
      .then((result) => { if (result && ticket === asked) showCheck(result); })
      .catch(() => {});  // the check is a help; the save still says everything
  }

  function checkSoon() {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  }

  form.addEventListener("input", checkSoon);
  form.addEventListener("change", checkSoon);
  form.addEventListener("click", (event) => {
    if (event.target.closest("button.alt")) checkSoon();
  });

  boxes.forEach((rect, key) => {
    rect.addEventListener("click", () => {
      const input = form.querySelector('li.number[data-key="' + key + '"] input.value');
      if (input) { input.scrollIntoView({block: "center"}); input.focus(); }
    });
  });
})();
