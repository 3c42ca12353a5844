// lh ui: ask before a change, and "/" puts the cursor in the search. Everything else is plain HTML.
"use strict";
document.addEventListener("submit", (event) => {
  const ask = event.target.getAttribute("data-confirm");
  if (ask && !window.confirm(ask)) {
    event.preventDefault();
  }
});
document.addEventListener("keydown", (event) => {
  const box = document.querySelector("#search input[type=search]");
  if (event.key === "/" && box && document.activeElement !== box) {
    event.preventDefault();
    box.focus();
  }
});
