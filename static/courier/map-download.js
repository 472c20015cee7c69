// The map as PNG: the page's "PNG" button fetches the map's SVG file (the same one its
// SVG link gives, drawn for this reader) and draws it at twice its size into a canvas,
// saved under the SVG file's name.
(function () {
  const SCALE = 2;

  function fileName(response) {
    const given = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    return (given ? given[1] : "map.svg").replace(/\.svg$/, ".png");
  }

  function save(blob, name) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  async function png(button) {
    const response = await fetch(button.dataset.png, { credentials: "same-origin" });
    if (!response.ok) return;
    const source = URL.createObjectURL(await response.blob());
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth * SCALE;
      canvas.height = image.naturalHeight * SCALE;
      const context = canvas.getContext("2d");
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(source);
      canvas.toBlob((blob) => save(blob, fileName(response)), "image/png");
    };
    image.src = source;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-png]");
    if (button) png(button);
  });
})();
