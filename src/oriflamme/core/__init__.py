"""The engine: card data, plugins, the game state and the rules that advance it.

Import the public names from :mod:`oriflamme`, not from here; the modules in this
package are the implementation and may move.
"""
