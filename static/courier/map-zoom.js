// Zoom and pan on a drawn map (campaign/maps), with the vendored Panzoom: the mouse
// wheel, a drag, a pinch, the +, − and Fit buttons, and the keyboard on the focused map
// (+, −, 0 for the whole map, the arrows to move). The first view frames the reader's
// own areas (the figure's data-focus, "x y width height" in map units), at no less than
// the scale the map was built for on a phone; the view is kept when HTMX swaps the map
// in again. A drag does not open the area it ends on. The scale is kept in the SVG's
// --zoom, by which map.css divides the orders' strokes: Panzoom scales the whole drawing,
// and an arrow or a ring would otherwise grow thicker than the names it goes round.
(function () {
  const MAX_SCALE = 8;
  const STEP = 0.4;
  const views = {}; // the figure's map id → {scale, x, y}: kept across HTMX swaps

  function firstView(svg, focus, builtScale) {
    const box = svg.viewBox.baseVal;
    const [x, y, width, height] = focus ? focus.split(" ").map(Number) : [0, 0, box.width, box.height];
    const pxPerUnit = svg.clientWidth / box.width;
    const framing = Math.min(box.width / width, box.height / height);
    const scale = Math.min(MAX_SCALE, Math.max(1, framing, builtScale / pxPerUnit));
    // Panzoom scales about the element's centre, then translates by pan × scale.
    const dx = (box.width / 2 - (x + width / 2)) * pxPerUnit;
    const dy = (box.height / 2 - (y + height / 2)) * pxPerUnit;
    return { scale, x: dx, y: dy };
  }

  function setUp(figure) {
    const frame = figure.querySelector(".map-frame");
    const svg = frame && frame.querySelector("svg");
    if (!svg || svg.dataset.zoomable || !window.Panzoom) return;
    svg.dataset.zoomable = "1";
    const zoom = Panzoom(svg, { maxScale: MAX_SCALE, minScale: 1, step: STEP, contain: "outside", cursor: "grab" });
    frame.addEventListener("wheel", zoom.zoomWithWheel, { passive: false });
    const kept = views[svg.id];
    const first = kept || firstView(svg, figure.dataset.focus, Number(figure.dataset.builtScale) || 0);
    if (first.scale > 1 || first.x || first.y) {
      requestAnimationFrame(() => {
        zoom.zoom(first.scale, { animate: false });
        requestAnimationFrame(() => zoom.pan(first.x, first.y, { animate: false }));
      });
    }
    svg.addEventListener("panzoomchange", (event) => {
      views[svg.id] = { scale: event.detail.scale, x: event.detail.x, y: event.detail.y };
      svg.style.setProperty("--zoom", event.detail.scale);
    });

    let start = null;
    svg.addEventListener("pointerdown", (event) => { start = [event.clientX, event.clientY]; });
    svg.addEventListener("click", (event) => {
      const moved = start && Math.hypot(event.clientX - start[0], event.clientY - start[1]) > 6;
      if (moved) event.stopImmediatePropagation();
    }, true);

    figure.querySelectorAll("[data-zoom]").forEach((button) => {
      button.addEventListener("click", () => {
        if (button.dataset.zoom === "in") zoom.zoomIn();
        else if (button.dataset.zoom === "out") zoom.zoomOut();
        else zoom.reset();
      });
    });
    frame.addEventListener("keydown", (event) => {
      const nudge = frame.clientWidth / 10 / zoom.getScale();
      const moves = { ArrowLeft: [nudge, 0], ArrowRight: [-nudge, 0], ArrowUp: [0, nudge], ArrowDown: [0, -nudge] };
      if (event.key === "+" || event.key === "=") zoom.zoomIn();
      else if (event.key === "-" || event.key === "−") zoom.zoomOut();
      else if (event.key === "0") zoom.reset();
      else if (moves[event.key] && event.target === frame) zoom.pan(...moves[event.key], { relative: true });
      else return;
      event.preventDefault();
    });
  }

  function setUpAll(root) {
    root.querySelectorAll("figure.drawn").forEach(setUp);
  }

  document.addEventListener("DOMContentLoaded", () => setUpAll(document));
  document.addEventListener("htmx:load", (event) => setUpAll(event.detail.elt.parentElement || document));
})();
