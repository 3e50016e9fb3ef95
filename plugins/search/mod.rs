//! Game-tree search shared by plug-ins.
