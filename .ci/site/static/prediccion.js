/* The lesson's prediction questions on the site (.ci/site/predictions_site.py writes them): the answer buttons
 * become live, a press shows that option's sentence in the live region, and the no-script list is hidden. */
(function () {
  "use strict";
  function live(box) {
    var buttons = box.querySelectorAll(".prediccion-opcion");
    var answer = box.querySelector(".prediccion-respuesta");
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        buttons.forEach(function (o) { o.setAttribute("aria-pressed", o === b ? "true" : "false"); });
        answer.textContent = b.getAttribute("data-veredicto");
      });
    });
    box.querySelector(".prediccion-botones").hidden = false;
    box.querySelector(".prediccion-sin-js").hidden = true;
  }
  function start() { document.querySelectorAll(".prediccion-viva").forEach(live); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
