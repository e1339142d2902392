'use strict'
// Which recipe a crafting grid holds: minecraft-data's crafting recipes, read through
// prismarine-recipe. As vanilla's ShapedRecipe.matches, a shaped recipe matches anywhere in
// the grid and mirrored left to right; a shapeless one matches its ingredients in any slots.
// Crafting takes one item from every filled grid slot (vanilla's ResultSlot.onTake).
// Recipes that leave an item behind (a milk bucket's bucket) are not modelled: no test
// crafts them. minecraft-data lists tag ingredients (any planks) as one recipe per item.

const { requirePeer } = require('../common')

module.exports = function crafting (registry) {
  const Recipe = requirePeer('prismarine-recipe')(registry).Recipe
  const recipes = []
  for (const id of Object.keys(registry.recipes)) {
    for (const raw of registry.recipes[id]) recipes.push(new Recipe(raw))
  }

  const filled = (cell) => cell && cell.id >= 0

  // The shape's rows as item ids (-1 for empty), trimmed to its bounding box.
  function trim (rows) {
    const box = { top: Infinity, bottom: -1, left: Infinity, right: -1 }
    rows.forEach((row, r) => row.forEach((id, c) => {
      if (id < 0) return
      box.top = Math.min(box.top, r); box.bottom = Math.max(box.bottom, r)
      box.left = Math.min(box.left, c); box.right = Math.max(box.right, c)
    }))
    if (box.bottom < 0) return []
    const out = []
    for (let r = box.top; r <= box.bottom; r++) {
      const row = []
      for (let c = box.left; c <= box.right; c++) row.push(rows[r][c] ?? -1)
      out.push(row)
    }
    return out
  }

  const shapes = new Map() // recipe -> trimmed shape
  for (const recipe of recipes) {
    if (recipe.inShape) shapes.set(recipe, trim(recipe.inShape.map((row) => row.map((cell) => filled(cell) ? cell.id : -1))))
  }

  function sameShape (a, b, mirrored) {
    if (a.length !== b.length) return false
    for (let r = 0; r < a.length; r++) {
      if (a[r].length !== b[r].length) return false
      const w = a[r].length
      for (let c = 0; c < w; c++) if (a[r][c] !== b[r][mirrored ? w - 1 - c : c]) return false
    }
    return true
  }

  // `ids`: the grid's item ids row by row (-1 empty), `width` 2 or 3.
  // Returns {id, count} of the result, or null.
  function match (ids, width) {
    const rows = []
    for (let r = 0; r < width; r++) rows.push(ids.slice(r * width, r * width + width))
    const shape = trim(rows)
    if (shape.length === 0) return null
    const present = ids.filter((id) => id >= 0).sort((a, b) => a - b)
    for (const recipe of recipes) {
      const wanted = shapes.get(recipe)
      if (wanted) {
        if (sameShape(wanted, shape, false) || sameShape(wanted, shape, true)) return resultOf(recipe)
      } else if (recipe.ingredients && recipe.ingredients.length === present.length) {
        const need = recipe.ingredients.map((i) => i.id).sort((a, b) => a - b)
        if (need.every((id, i) => id === present[i])) return resultOf(recipe)
      }
    }
    return null
  }

  function resultOf (recipe) {
    return { name: registry.items[recipe.result.id].name, count: recipe.result.count }
  }

  return { match }
}
