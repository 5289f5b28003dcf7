// The upload form: refuse a too-large or empty file before sending it, so nothing chosen is lost.
"use strict";

(function () {
  const form = document.getElementById("upload-form");
  if (!form) return;
  const message = document.getElementById("upload-check");
  const limit = Number(form.dataset.maxBytes);
  form.addEventListener("submit", (event) => {
    const file = form.querySelector('input[type="file"]').files[0];
    let problem = "";
    if (file && file.size === 0) problem = file.name + ": the file is empty (0 bytes).";
    else if (file && limit && file.size > limit) {
      const size = limit >= 1048576 ? Math.round(limit / 1048576) + " MB" : Math.round(limit / 1024) + " KB";
      problem = file.name + ": the photo is larger than " + size + ". Upload a smaller copy.";
    }
    message.hidden = !problem;
    message.textContent = problem;
    if (problem) event.preventDefault();
  });
})();
