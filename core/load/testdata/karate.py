# Writes Zachary's karate club (34 nodes, 78 edges) in the four formats
# core/load reads besides its own: GraphML, GEXF and node-link JSON by
# networkx, graphology's JSON by hand. Node ids are words ("n0".."n33");
# the one node attribute is the numeric "club" (0: Mr. Hi's, 1: the
# Officer's); the edges keep networkx's "weight", which the readers ignore
# and say so. Run from this folder: python3 karate.py (networkx 3.6.1 wrote
# the files here). The tests never run networkx.
import json

import networkx as nx

g = nx.karate_club_graph()
g = nx.relabel_nodes(g, {i: f"n{i}" for i in g})
for _, a in g.nodes(data=True):
    a["club"] = 0 if a["club"] == "Mr. Hi" else 1

nx.write_graphml(g, "karate.graphml")
nx.write_gexf(g, "karate.gexf")
with open("karate.nodelink.json", "w") as f:
    json.dump(nx.node_link_data(g, edges="links"), f, indent=1)
    f.write("\n")

graphology = {
    "options": {"type": "undirected", "multi": False, "allowSelfLoops": True},
    "attributes": {"name": g.graph.get("name", "")},
    "nodes": [{"key": n, "attributes": {"club": a["club"]}} for n, a in g.nodes(data=True)],
    "edges": [
        {"key": f"e{k}", "source": u, "target": v, "undirected": True, "attributes": {"weight": a["weight"]}}
        for k, (u, v, a) in enumerate(g.edges(data=True))
    ],
}
with open("karate.graphology.json", "w") as f:
    json.dump(graphology, f, indent=1)
    f.write("\n")
