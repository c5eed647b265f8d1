<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="pointy_big" tilewidth="32" tileheight="36" tilecount="6" columns="3">
 <tileoffset x="-2" y="3"/>
 <image source="pointy_big.png" width="96" height="72"/>
 <tile id="0">
  <properties>
   <property name="terrain" propertytype="Terrain" value="grass"/>
   <property name="move_penalty" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="terrain" propertytype="Terrain" value="rough"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="footing" type="int" value="-1"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="terrain" propertytype="Terrain" value="water"/>
   <property name="move_penalty" type="int" value="2"/>
   <property name="footing" type="int" value="-2"/>
   <property name="cover" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="terrain" propertytype="Terrain" value="wall"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="terrain" propertytype="Terrain" value="hill"/>
   <property name="elevation" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="terrain" propertytype="Terrain" value="wood"/>
   <property name="move_penalty" type="int" value="1"/>
   <property name="cover" type="int" value="-1"/>
   <property name="blocks_sight" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
